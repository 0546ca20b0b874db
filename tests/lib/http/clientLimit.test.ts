import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { getBlockNumber } from 'viem/actions'
import { describe, expect, it } from 'vitest'
import * as z from '../../../schemas/zod'
import { publicClient } from '../../../lib/chain/clients'
import { loadClientLimitConfig } from '../../../lib/config'
import { db, tableName } from '../../../lib/db/client'
import { chargeClientBudget, CLIENT_WINDOW_SECONDS } from '../../../lib/db/clientBudget'
import { clientWindowKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import { clientLimit } from '../../../lib/http/clientLimit'
import { defineHandler } from '../../../lib/http/defineHandler'
import { httpEvent, invoke } from '../../support/httpEvent'
import { clearOfWindowEnd } from '../../support/windowEdge'

// The per-client budget of lib/http/clientLimit.ts on real DynamoDB and a real devnet: a weight
// per request, taken before the core, and for the RPC budget the calls the core made beyond it.

const ROUTE = 'GET /api/v1/test/rpc-calls'

/** A route charged 3 RPC calls up front whose core makes `calls` (each its own round trip). */
const rpcRoute = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('rpc', 3),
  query: z.strictObject({ calls: z.pipe(z.coerce.number(), z.int()) }),
  result: z.object({ made: z.number() }),
  run: async ({ query }) => {
    for (let call = 0; call < query.calls; call++) {
      await getBlockNumber(publicClient('ethereum'), { cacheTime: 0 })
    }
    return { made: query.calls }
  },
})

const newClient = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`

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

const call = (sourceIp: string, calls: number) =>
  invoke(
    rpcRoute,
    httpEvent({ routeKey: ROUTE, queryStringParameters: { calls: String(calls) }, sourceIp }),
  )

describe('clientLimit on the RPC budget', () => {
  it('charges each request max(its weight, the RPC calls its core made), and refuses one that no longer fits before its core runs', async () => {
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, 20)
    const client = newClient()
    const limit = loadClientLimitConfig().rpc

    expect((await call(client, 1)).status).toBe(200)
    expect(await spent(client)).toBe(3)
    expect((await call(client, 7)).status).toBe(200)
    expect(await spent(client)).toBe(10)
    // The rest of the minute spent by others' requests of this client, but 2.
    await chargeClientBudget('rpc', client, { units: limit - 12 })
    expect(await spent(client)).toBe(limit - 2)

    // A request of 5 calls: refused, its core not run (nothing more is charged).
    const refused = await call(client, 5)

    expect(refused).toEqual({
      status: 429,
      body: {
        ok: false,
        error: { code: 429, message: expect.stringMatching(/^too many requests/) },
      },
    })
    expect(await spent(client)).toBe(limit - 2)
    // Another client's budget is its own.
    expect((await call(newClient(), 0)).status).toBe(200)
  })
})
