import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { describe, expect, it } from 'vitest'
import { handler as quoteAltchain } from '../../../functions/swap/quoteAltchain'
import { handler as quoteEthereum } from '../../../functions/swap/quoteEthereum'
import { loadClientLimitConfig } from '../../../lib/config'
import { QUOTE_RPC_CALLS } from '../../../lib/constants'
import { db, tableName } from '../../../lib/db/client'
import { CLIENT_WINDOW_SECONDS } from '../../../lib/db/clientBudget'
import { clientWindowKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import { deployment } from '../../support/devnetAccounts'
import { httpEvent, lambdaContext } from '../../support/httpEvent'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { clearOfWindowEnd } from '../../support/windowEdge'
import { uniqueClient } from '../../support/uniqueClient'

// Anonymous quotes spend the provider's quota (issue 32): each client gets a budget of RPC calls
// a minute (CLIENT_LIMIT_RPC_CALLS_PER_MINUTE, 300), a quote charged QUOTE_RPC_CALLS (10) of it
// up front, shared by both networks' quote routes; over budget is 429 with Retry-After and no RPC
// call. Replayed on the real handlers, devnets and table, with the deployed defaults.

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

describe('the per-client RPC budget of anonymous quotes (DECISIONS §9.4)', () => {
  it('serves one client 30 quotes a minute across both networks and answers the rest 429 with Retry-After and no RPC call; another client is served', async () => {
    const limit = loadClientLimitConfig().rpc
    const perMinute = Math.floor(limit / QUOTE_RPC_CALLS)
    expect(perMinute).toBe(30)
    // Both pairs quoted once by another client: warm, a quote costs at most its 10 (requestCosts).
    expect((await quote('ethereum', newClient())).statusCode).toBe(200)
    expect((await quote('altchain', newClient())).statusCode).toBe(200)
    // 40 quotes from one client inside one minute (never across a window's end), 8 at a time.
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, 30)
    const flooder = newClient()
    const networkOf = (index: number) => (index % 2 === 0 ? 'ethereum' : 'altchain')

    const { result: answers, calls } = await rpcCallsDuring(async () => {
      const all: Raw[] = []
      for (let wave = 0; wave < 5; wave++) {
        all.push(
          ...(await Promise.all(
            Array.from({ length: 8 }, (_, index) => quote(networkOf(wave * 8 + index), flooder)),
          )),
        )
      }
      return all
    })
    const more = await rpcCallsDuring(() => quote('altchain', flooder))
    const other = await quote('ethereum', newClient())

    const refused = answers.filter((answer) => answer.statusCode === 429)
    // In order of the waves: the first 30 served (the fourth wave splits), the rest refused.
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([
      ...Array.from({ length: perMinute }, () => 200),
      ...Array.from({ length: 40 - perMinute }, () => 429),
    ])
    expect(answers.slice(0, 24).every((answer) => answer.statusCode === 200)).toBe(true)
    expect(answers.slice(32).every((answer) => answer.statusCode === 429)).toBe(true)
    for (const answer of refused) {
      expect(JSON.parse(answer.body)).toEqual({
        ok: false,
        error: { code: 429, message: expect.stringMatching(/^too many requests from this client/) },
      })
      const retryAfter = Number(answer.headers['retry-after'])
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(CLIENT_WINDOW_SECONDS)
    }
    // The client drove at most its budget of RPC calls in the minute, each quote charged its 10;
    // one more quote is refused before any RPC call.
    expect(calls).toBeGreaterThanOrEqual(perMinute)
    expect(calls).toBeLessThanOrEqual(limit)
    expect(await spent(flooder)).toBe(limit)
    expect({ status: more.result.statusCode, calls: more.calls }).toEqual({ status: 429, calls: 0 })
    expect(other.statusCode).toBe(200)
  })
})
