import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { describe, expect, inject, it } from 'vitest'
import { db, tableName } from '../../lib/db/client'
import { clientWindowKey } from '../../lib/db/keys'
import { windowOf } from '../../lib/db/windowCounter'
import { sendFrom } from '../support/loopbackClient'

// Two clients of the local stack, each on its own loopback address, as two phones are two
// sourceIps behind API Gateway (DECISIONS §9.6). The suite's offline runs with budgets far above
// the deployed ones, so client A's minute of requests is written into its budget's counter (the
// same item the real middleware counts in, this window and the next, so a minute turning over
// mid-test changes nothing) rather than sent one by one.
const CLIENT_A = '127.0.0.2'
const CLIENT_B = '127.0.0.3'
const SPENT = 1_000_000_000

async function spendBudget(budget: 'nonce' | 'rpc', sourceIp: string): Promise<void> {
  const { startsAt } = windowOf(60)
  for (const windowStart of [startsAt, startsAt + 60]) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: clientWindowKey(budget, sourceIp, windowStart),
        UpdateExpression: 'SET #type = :type, #count = :spent, expiresAt = :endsAt',
        ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
        ExpressionAttributeValues: {
          ':type': 'WindowCounter',
          ':spent': SPENT,
          ':endsAt': windowStart + 60,
        },
      }),
    )
  }
}

describe('per-client budgets over the local stack', () => {
  it('answers 429 to the client over its budget and 200 to another client at the same moment', async () => {
    await spendBudget('nonce', CLIENT_A)
    const address = privateKeyToAccount(generatePrivateKey()).address
    const url = `${inject('apiUrl')}/api/v1/auth/nonce/${address}`

    const [overBudget, other] = await Promise.all([
      sendFrom(CLIENT_A, url),
      sendFrom(CLIENT_B, url),
    ])

    expect(overBudget).toMatchObject({ status: 429, body: { ok: false, error: { code: 429 } } })
    expect(Number(overBudget.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(other).toMatchObject({ status: 200, body: { ok: true } })
    // The front itself (127.0.0.1, every other test's client) was not spent either.
    expect((await sendFrom('127.0.0.1', url)).status).toBe(200)
  })

  it('answers 429 to a quote from the client whose RPC budget is spent, and the quote to another client (DECISIONS §9.4)', async () => {
    const CLIENT_C = '127.0.0.4'
    await spendBudget('rpc', CLIENT_C)
    const dex = inject('deployments').ethereum
    const link = dex.tokens.find(({ symbol }) => symbol === 'LINK')?.address ?? ''
    const query = new URLSearchParams({
      amount: '1',
      address0: link,
      decimals0: '18',
      address1: dex.usdStablecoin,
      decimals1: '6',
    })
    const url = `${inject('apiUrl')}/api/v1/swap/quote/ethereum?${query.toString()}`

    const [overBudget, other] = await Promise.all([
      sendFrom(CLIENT_C, url),
      sendFrom(CLIENT_B, url),
    ])

    expect(overBudget).toMatchObject({ status: 429, body: { ok: false, error: { code: 429 } } })
    expect(Number(overBudget.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(other).toMatchObject({ status: 200, body: { ok: true } })
  })
})
