import '../../support/env'
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler as subscribe } from '../../../functions/ws/wsSubscribe'
import { listProjects } from '../../../lib/db/project'
import { watchProject } from '../../../lib/db/watchlist'
import { listConnectionFeeds, putConnection } from '../../../lib/db/wsConnection'
import { lambdaContext } from '../../support/httpEvent'

// A connection's subscriptions (DECISIONS §10.3, issue 41: "a client over its limits is told so
// and others are unaffected"), through the real route handler and DynamoDB Local: a wallet that
// watches a generated number of the catalog's projects subscribes to its trades (one feed) and its
// prices (one feed a watched project), in a generated order. Each subscribe that would take the
// connection over 20 feeds is refused with a 429 that says so and changes nothing; the others
// are answered; another wallet's connection subscribes as before.

const LIMIT = 20
const SEED = process.env.WS_LIMIT_SEED === undefined ? undefined : Number(process.env.WS_LIMIT_SEED)

type Answer = { type: string; status?: number; message?: string; sequences?: object }

async function openConnection(wallet: `0x${string}`) {
  const connectionId = randomUUID()
  await putConnection({ connectionId, wallet, openUntil: Date.now() + 60 * 60 * 1000 })
  return connectionId
}

async function send(connectionId: string, topic: 'trades' | 'prices'): Promise<Answer> {
  const response = await subscribe(
    {
      // Each message in a second of its own: the message rate is not what is tested here.
      requestContext: { connectionId, routeKey: 'subscribe', requestTimeEpoch: Date.now() },
      body: JSON.stringify({ action: 'subscribe', topic }),
    },
    lambdaContext(),
  )
  return JSON.parse(response.body) as Answer
}

let projectIds: string[] = []

beforeAll(async () => {
  projectIds = (await listProjects()).map((project) => project.id)
})

describe('the subscriptions of a WebSocket connection', () => {
  it(`holds at most ${LIMIT} feeds: a subscribe over them is a 429 that says so and changes nothing, the others are answered, and another wallet's connection is unaffected`, async () => {
    expect(projectIds.length).toBeGreaterThan(LIMIT)
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: LIMIT + 5 }),
        fc.boolean(),
        async (watched, pricesFirst) => {
          const wallet = privateKeyToAddress(generatePrivateKey())
          for (const projectId of projectIds.slice(0, watched)) {
            await watchProject(wallet, projectId)
          }
          const connection = await openConnection(wallet)
          const order: Array<'trades' | 'prices'> = pricesFirst
            ? ['prices', 'trades']
            : ['trades', 'prices']
          const feedsOf = { trades: 1, prices: watched }
          let held = 0
          for (const topic of order) {
            const before = (await listConnectionFeeds(connection)).sort()
            const answer = await send(connection, topic)
            if (held + feedsOf[topic] > LIMIT) {
              expect(answer).toMatchObject({
                type: 'error',
                status: 429,
                message: expect.stringMatching(/may hold 20 subscriptions/),
              })
              expect((await listConnectionFeeds(connection)).sort()).toEqual(before)
            } else {
              expect(answer).toMatchObject({ type: 'subscribed', topic })
              held += feedsOf[topic]
              expect(await listConnectionFeeds(connection)).toHaveLength(held)
            }
          }
          const other = await openConnection(privateKeyToAddress(generatePrivateKey()))
          expect(await send(other, 'trades')).toMatchObject({ type: 'subscribed', topic: 'trades' })
        },
      ),
      // The edges always among the cases: 20 watched and the trades first (the prices refused)
      // or last (the trades refused), and 19 watched (both fit exactly).
      {
        numRuns: 15,
        seed: SEED,
        examples: [
          [LIMIT, false],
          [LIMIT, true],
          [LIMIT - 1, false],
        ],
      },
    )
  })
})
