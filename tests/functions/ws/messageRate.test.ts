import '../../support/env'
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { privateKeyToAddress, generatePrivateKey } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler as unsubscribe } from '../../../functions/ws/wsUnsubscribe'
import { putConnection } from '../../../lib/db/wsConnection'
import { lambdaContext } from '../../support/httpEvent'

// The WebSocket API's message rate (DECISIONS §10.3, issue 41: "a client over its limits is told
// so and others are unaffected"), through the real route handler and DynamoDB Local: messages
// stamped as API Gateway stamps them (requestTimeEpoch, their arrival), sent at once, at generated
// arrival times over three seconds. In each second a connection's first 5 are answered and the
// rest refused with a 429 error message; another connection's messages in the same seconds are
// all answered. Over serverless offline this depends on when the local server stamps a frame,
// which a loaded machine moves (docs/websocket.md); here the arrival times are the case's own.

const LIMIT = 5
const SEED = process.env.WS_RATE_SEED === undefined ? undefined : Number(process.env.WS_RATE_SEED)

async function openConnection() {
  const connectionId = randomUUID()
  await putConnection({
    connectionId,
    wallet: privateKeyToAddress(generatePrivateKey()),
    openUntil: Date.now() + 60 * 60 * 1000,
  })
  return connectionId
}

type Answer = { type: string; status?: number; message?: string; retryAfterSeconds?: number }

async function send(connectionId: string, requestTimeEpoch: number): Promise<Answer> {
  const response = await unsubscribe(
    {
      requestContext: { connectionId, routeKey: 'unsubscribe', requestTimeEpoch },
      body: JSON.stringify({ action: 'unsubscribe', topic: 'trades' }),
    },
    lambdaContext(),
  )
  return JSON.parse(response.body) as Answer
}

describe('the message rate of a WebSocket connection', () => {
  it(`answers the first ${LIMIT} messages of each second a connection sends and refuses the rest with a 429 that says so, while another connection's messages in the same seconds are all answered`, async () => {
    // Seconds far in the past, a new one each case: no two cases share a rate item.
    let base = Math.floor(Date.now() / 1000) * 1000 - 10_000_000_000
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 2999 }), { minLength: 1, maxLength: 16 }),
        fc.array(fc.integer({ min: 0, max: 2999 }), { minLength: 1, maxLength: LIMIT }),
        async (offsets, otherOffsets) => {
          base += 10_000
          const [flooding, other] = await Promise.all([openConnection(), openConnection()])
          const answers = await Promise.all([
            ...offsets.map((offset) => send(flooding, base + offset)),
            ...otherOffsets.map((offset) => send(other, base + offset)),
          ])
          const floodAnswers = answers.slice(0, offsets.length)
          const otherAnswers = answers.slice(offsets.length)

          const perSecond = new Map<number, number>()
          for (const offset of offsets) {
            const second = Math.floor(offset / 1000)
            perSecond.set(second, (perSecond.get(second) ?? 0) + 1)
          }
          const refusals = [...perSecond.values()].reduce(
            (sum, count) => sum + Math.max(0, count - LIMIT),
            0,
          )
          const refused = floodAnswers.filter((answer) => answer.type === 'error')
          expect(refused).toHaveLength(refusals)
          for (const answer of refused) {
            expect(answer).toMatchObject({
              status: 429,
              retryAfterSeconds: 1,
              message: expect.stringMatching(/more than 5 messages a second/),
            })
          }
          expect(floodAnswers.filter((answer) => answer.type === 'unsubscribed')).toHaveLength(
            offsets.length - refusals,
          )
          expect(otherAnswers.map((answer) => answer.type)).toEqual(
            otherOffsets.map(() => 'unsubscribed'),
          )
        },
      ),
      { numRuns: 30, seed: SEED },
    )
  })
})
