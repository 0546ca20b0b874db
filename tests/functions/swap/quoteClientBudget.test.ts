import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { describe, expect, it } from 'vitest'
import { loadClientLimitConfig } from '../../../lib/config'
import { db, tableName } from '../../../lib/db/client'
import { CLIENT_WINDOW_SECONDS } from '../../../lib/db/clientBudget'
import { clientWindowKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import { QUOTE_RPC_CAP } from '../../../lib/rpcCallCaps'
import { deployment } from '../../support/devnetAccounts'
import { httpEvent, lambdaContext } from '../../support/httpEvent'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { clearOfWindowEnd } from '../../support/windowEdge'
import { uniqueClient } from '../../support/uniqueClient'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const quoteAltchain = networkRoute('quote', 'altchain')
const quoteEthereum = networkRoute('quote', 'ethereum')

// Anonymous quotes spend the provider's quota (issue 32): each client gets a budget of RPC calls
// a minute (CLIENT_LIMIT_RPC_CALLS_PER_MINUTE, 300), a quote charged its worst case
// (QUOTE_RPC_CAP, 44) up front and refunded what it did not call (DECISIONS §10.4), shared by
// both networks' quote routes and every other route that calls a node; over budget is 429 with
// Retry-After and no RPC call. Replayed on the real handlers, devnets and table, with the
// deployed defaults.

type Raw = { statusCode: number; headers: Record<string, string>; body: string }

const QUOTE = {
  ethereum: () => {
    const dex = deployment('ethereum')
    return {
      amount: '1',
      address0: dex.token('LINK'),
      decimals0: '18',
      address1: dex.usdStablecoin,
      decimals1: '6',
    }
  },
  altchain: () => {
    const dex = deployment('altchain')
    return {
      amount: '1',
      address0: dex.token('CAKE'),
      decimals0: '18',
      address1: dex.usdStablecoin,
      decimals1: '6',
    }
  },
}

async function quote(network: 'ethereum' | 'altchain', sourceIp: string): Promise<Raw> {
  const handler = network === 'ethereum' ? quoteEthereum : quoteAltchain
  const route = network === 'ethereum' ? 'quoteEthereum' : 'quoteAltchain'
  return (await handler(
    httpEvent({ route, queryStringParameters: QUOTE[network](), sourceIp }),
    lambdaContext(),
  )) as Raw
}

/** JSON-RPC calls made while `run` runs (every member of a batch). */
async function rpcCallsDuring<Result>(run: () => Promise<Result>) {
  let calls = 0
  const onRequest = (text: unknown) => {
    const body = typeof text === 'string' ? (JSON.parse(text) as unknown) : undefined
    calls += [body].flat().length
  }
  rpcRequestChannel.subscribe(onRequest)
  try {
    const result = await run()
    return { result, calls }
  } finally {
    rpcRequestChannel.unsubscribe(onRequest)
  }
}

/** The client's RPC calls charged in the present minute. */
async function spent(sourceIp: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: clientWindowKey('rpc', sourceIp, windowOf(CLIENT_WINDOW_SECONDS).startsAt),
      ConsistentRead: true,
    }),
  )
  return Number(Item?.count ?? 0)
}

/** A client's source address of its own: a test's budgets are never another test's. */
const newClient = uniqueClient

describe('the per-client RPC budget of anonymous quotes (DECISIONS §9.4, §10.4)', () => {
  it("serves one client quotes across both networks while what is left covers a quote's worst case, each charged the calls it made, and answers the rest 429 with Retry-After and no RPC call; another client is served", async () => {
    const limit = loadClientLimitConfig().rpc
    // Both pairs quoted once by another client: warm, a quote costs its 7 or 8 (requestCosts).
    expect((await quote('ethereum', newClient())).statusCode).toBe(200)
    expect((await quote('altchain', newClient())).statusCode).toBe(200)
    // 45 quotes from one client inside one minute (never across a window's end), one at a time.
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, 40)
    const flooder = newClient()
    const networkOf = (index: number) => (index % 2 === 0 ? 'ethereum' : 'altchain')

    const answers: Array<{ status: number; calls: number; raw: Raw }> = []
    for (let index = 0; index < 45; index++) {
      const { result, calls } = await rpcCallsDuring(() => quote(networkOf(index), flooder))
      answers.push({ status: result.statusCode, calls, raw: result })
    }
    const other = await quote('ethereum', newClient())

    const served = answers.filter((answer) => answer.status === 200)
    const callsServed = served.reduce((sum, answer) => sum + answer.calls, 0)
    const firstRefused = answers.findIndex((answer) => answer.status === 429)
    // Served in a row, then refused: the first refusal comes once less than a worst case is left.
    expect(firstRefused).toBe(served.length)
    expect(answers.slice(firstRefused).every((answer) => answer.status === 429)).toBe(true)
    expect(limit - callsServed).toBeLessThan(QUOTE_RPC_CAP)
    // More than the 300 / 40 = 7 that charges without refunds would allow.
    expect(served.length).toBeGreaterThan(Math.floor(limit / QUOTE_RPC_CAP))
    // The budget holds exactly the calls that left the process: each quote refunded the rest.
    expect(await spent(flooder)).toBe(callsServed)
    for (const { raw, calls } of answers.slice(firstRefused)) {
      expect({ calls, body: JSON.parse(raw.body) as unknown }).toEqual({
        calls: 0,
        body: {
          ok: false,
          error: {
            code: 429,
            message: expect.stringMatching(/^too many requests from this client/),
          },
        },
      })
      const retryAfter = Number(raw.headers['retry-after'])
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(CLIENT_WINDOW_SECONDS)
    }
    expect(other.statusCode).toBe(200)
  })
})
