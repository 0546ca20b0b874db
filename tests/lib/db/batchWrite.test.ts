import '../../support/env'
import { describe, expect, it } from 'vitest'
import { handler as getDailyPriceHistory } from '../../../functions/price/getDailyPriceHistory'
import { handler as getMonthlyPriceHistory } from '../../../functions/price/getMonthlyPriceHistory'
import { handler as getYearlyPriceHistory } from '../../../functions/price/getYearlyPriceHistory'
import { db } from '../../../lib/db/client'
import { httpEvent, invoke } from '../../support/httpEvent'
import { createProject } from '../../support/marketFixtures'

// Issue 22, row 7 (DECISIONS §7.1: every batch write retries its unprocessed items): the catalog
// import's BatchWriteItem of a project's history markers ignored UnprocessedItems, so a marker
// DynamoDB left unprocessed left that grain's history 404 for good.

/**
 * A stand-in for throttling, which DynamoDB Local never does: the first BatchWriteItem sends all
 * its requests but the last to the real engine and answers that one as unprocessed.
 */
function leaveLastUnprocessedOnce() {
  const name = 'leaveLastUnprocessedOnce'
  const left: unknown[] = []
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'BatchWriteItemCommand' || left.length > 0) return next(args)
      const input = args.input as { RequestItems: Record<string, unknown[]> }
      const [table, requests] = Object.entries(input.RequestItems)[0] ?? []
      if (!table || !requests || requests.length < 2) return next(args)
      left.push(requests[requests.length - 1])
      const result = await next({
        ...args,
        input: { ...input, RequestItems: { [table]: requests.slice(0, -1) } },
      })
      const output = result.output as { UnprocessedItems?: Record<string, unknown[]> }
      output.UnprocessedItems = { [table]: left }
      return result
    },
    { step: 'initialize', name, priority: 'high' },
  )
  return {
    left,
    stop: () => db().middlewareStack.remove(name),
  }
}

describe('batch writes', () => {
  it('writes a history marker DynamoDB left unprocessed: every grain of a new project answers 200', async () => {
    const standIn = leaveLastUnprocessedOnce()
    let projectId: string
    try {
      projectId = (await createProject()).id
    } finally {
      standIn.stop()
    }

    expect(standIn.left).toHaveLength(1)
    for (const [routeKey, handler] of [
      ['GET /api/v1/price/history/daily/{projectId}', getDailyPriceHistory],
      ['GET /api/v1/price/history/monthly/{projectId}', getMonthlyPriceHistory],
      ['GET /api/v1/price/history/yearly/{projectId}', getYearlyPriceHistory],
    ] as const) {
      const response = await invoke(handler, httpEvent({ routeKey, pathParameters: { projectId } }))

      expect({ routeKey, status: response.status }).toEqual({ routeKey, status: 200 })
    }
  })
})
