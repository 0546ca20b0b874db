import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { getBlockNumber } from 'viem/actions'
import { describe, expect, it } from 'vitest'
import * as z from '../../../schemas/zod'
import { publicClient } from '../../../lib/chain/clients'
import { loadClientLimitConfig } from '../../../lib/config'
import { db, tableName } from '../../../lib/db/client'
import { CLIENT_WINDOW_SECONDS, spendClientBudget } from '../../../lib/db/clientBudget'
import { clientWindowKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import { defineHandler } from '../../../lib/http/defineHandler'
import { rpcBudget } from '../../../lib/http/rpcBudget'
import { httpEvent, lambdaContext } from '../../support/httpEvent'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { uniqueClient } from '../../support/uniqueClient'
import { clearOfWindowEnd } from '../../support/windowEdge'

// The RPC budget of lib/http/rpcBudget.ts on real DynamoDB and a real devnet (DECISIONS §10.4):
// a route charged its worst case (its cap) before its core, its calls capped at the transport,
// the unspent part refunded. The calls are counted where they leave (the transport's channel).

const ROUTE = 'GET /api/v1/test/rpc-calls'
const CAP = 5

/**
 * A route capped at 5 RPC calls whose core makes `calls` (each its own round trip); `swallow`
 * catches a refused call and answers anyway, as a core that skips a failed read would.
 */
const rpcRoute = defineHandler({
  auth: 'none',
  rpcBudget: rpcBudget(CAP),
  query: z.strictObject({
    calls: z.pipe(z.coerce.number(), z.int()),
    swallow: z.optional(z.literal('1')),
  }),
  result: z.object({ made: z.number() }),
  run: async ({ query }) => {
    let made = 0
    for (let call = 0; call < query.calls; call++) {
      try {
        await getBlockNumber(publicClient('ethereum'), { cacheTime: 0 })
        made += 1
      } catch (error) {
        if (!query.swallow) throw error
      }
    }
    return { made }
  },
})

interface Raw {
  statusCode: number
  headers?: Record<string, string>
  body: string
}

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

/** One request, and the JSON-RPC calls that left the process while it ran. */
async function call(sourceIp: string, calls: number, swallow = false) {
  let sent = 0
  const onRequest = (text: unknown) => {
    sent += [JSON.parse(String(text)) as unknown].flat().length
  }
  rpcRequestChannel.subscribe(onRequest)
  try {
    const query = { calls: String(calls), ...(swallow && { swallow: '1' }) }
    const raw = (await rpcRoute(
      httpEvent({ routeKey: ROUTE, queryStringParameters: query, sourceIp }),
      lambdaContext(),
    )) as Raw
    return { status: raw.statusCode, headers: raw.headers ?? {}, body: JSON.parse(raw.body), sent }
  } finally {
    rpcRequestChannel.unsubscribe(onRequest)
  }
}

describe('rpcBudget: charged at the worst case, capped, refunded', () => {
  it('charges the cap before the core and gives back what the core did not spend', async () => {
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, 20)
    const client = uniqueClient()

    const one = await call(client, 1)
    const afterOne = await spent(client)
    const three = await call(client, 3)

    expect({ status: one.status, sent: one.sent, spent: afterOne }).toEqual({
      status: 200,
      sent: 1,
      spent: 1,
    })
    expect({ status: three.status, sent: three.sent, spent: await spent(client) }).toEqual({
      status: 200,
      sent: 3,
      spent: 4,
    })
  })

  it('refuses a request whose worst case exceeds what remains, 429 with Retry-After, before any RPC call', async () => {
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, 20)
    const client = uniqueClient()
    const limit = loadClientLimitConfig().rpc
    // The rest of the minute spent but CAP - 1: a request of 1 call would fit, its worst case not.
    await spendClientBudget('rpc', client, { weight: limit - (CAP - 1) })

    const refused = await call(client, 1)

    expect({ status: refused.status, body: refused.body, sent: refused.sent }).toEqual({
      status: 429,
      body: {
        ok: false,
        error: { code: 429, message: expect.stringMatching(/^too many requests from this client/) },
      },
      sent: 0,
    })
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(CLIENT_WINDOW_SECONDS)
    expect(await spent(client)).toBe(limit - (CAP - 1))
    // Another client's budget is its own.
    expect((await call(uniqueClient(), 1)).status).toBe(200)
  })

  it('serves a client that made fewer calls than its charge more requests than its charges alone would allow', async () => {
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, 30)
    const client = uniqueClient()
    const limit = loadClientLimitConfig().rpc
    // 2 × CAP left: without refunds, two requests; each of 1 call gives back CAP - 1.
    await spendClientBudget('rpc', client, { weight: limit - 2 * CAP })

    const answers: Array<{ status: number; sent: number }> = []
    for (let request = 0; request < 2 * CAP; request++) {
      const { status, sent } = await call(client, 1)
      answers.push({ status, sent })
    }

    // Each served request nets 1 call: served while what is left covers a worst case (CAP), so
    // CAP + 1 of them (2 without refunds); then refused with no call.
    expect(answers).toEqual([
      ...Array.from({ length: CAP + 1 }, () => ({ status: 200, sent: 1 })),
      ...Array.from({ length: CAP - 1 }, () => ({ status: 429, sent: 0 })),
    ])
    expect(await spent(client)).toBe(limit - (CAP - 1))
  })

  it('refuses the call past the cap at the transport: 422, the cap never passed, nothing refunded', async () => {
    const client = uniqueClient()

    const over = await call(client, CAP + 2)
    // A core that catches the refusal and answers still fails: its answer lacks a call.
    const swallowed = await call(uniqueClient(), CAP + 2, true)

    for (const answer of [over, swallowed]) {
      expect({ status: answer.status, body: answer.body, sent: answer.sent }).toEqual({
        status: 422,
        body: {
          ok: false,
          error: {
            code: 422,
            message: `the request needs more than the ${CAP} RPC calls its route may make`,
          },
        },
        sent: CAP,
      })
    }
    expect(await spent(client)).toBe(CAP)
  })
})
