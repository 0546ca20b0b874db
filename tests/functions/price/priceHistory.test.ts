import '../../support/env'
import { randomUUID } from 'node:crypto'
import { formatUnits } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import {
  getDailyPriceHistory,
  handler as dailyHandler,
} from '../../../functions/price/getDailyPriceHistory'
import {
  getMonthlyPriceHistory,
  handler as monthlyHandler,
} from '../../../functions/price/getMonthlyPriceHistory'
import {
  getYearlyPriceHistory,
  handler as yearlyHandler,
} from '../../../functions/price/getYearlyPriceHistory'
import { db } from '../../../lib/db/client'
import { foldPriceSamples } from '../../../lib/markets/foldPriceSamples'
import type { PriceSample } from '../../../lib/markets/priceGrains'
import { formatTimestamp } from '../../../lib/formatTimestamp'
import { httpEvent, invoke } from '../../support/httpEvent'
import { createProject } from '../../support/marketFixtures'

const FIVE_MINUTES = 5 * 60 * 1000
const HOUR = 3_600_000
const DAY = 24 * HOUR

// A price that differs from sample to sample and drifts over the year, in exact e18 units.
function priceAt(index: number): bigint {
  return 10n ** 18n * 25n + BigInt(index % 997) * 10n ** 15n + BigInt(index) * 123_456_789n
}

/** The expected averages, grouped independently of the code under test. */
function expectedAverages(samples: PriceSample[], bucketOf: (at: Date) => number) {
  const sums = new Map<number, { sum: bigint; count: bigint }>()
  for (const { at, priceE18 } of samples) {
    const key = bucketOf(at)
    const entry = sums.get(key) ?? { sum: 0n, count: 0n }
    entry.sum += priceE18
    entry.count += 1n
    sums.set(key, entry)
  }
  return new Map(
    [...sums].map(([key, { sum, count }]) => [key, Number(formatUnits(sum / count, 18))]),
  )
}

const routes = {
  daily: { handler: dailyHandler, routeKey: 'GET /api/v1/price/history/daily/{projectId}' },
  monthly: { handler: monthlyHandler, routeKey: 'GET /api/v1/price/history/monthly/{projectId}' },
  yearly: { handler: yearlyHandler, routeKey: 'GET /api/v1/price/history/yearly/{projectId}' },
}

function requestHistory(kind: keyof typeof routes, projectId: string) {
  const { handler, routeKey } = routes[kind]
  return invoke(handler, httpEvent({ routeKey, pathParameters: { projectId } }))
}

async function countingDynamoCalls<Result>(run: () => Promise<Result>) {
  const send = vi.spyOn(db(), 'send')
  try {
    const result = await run()
    return { result, calls: send.mock.calls.length }
  } finally {
    send.mockRestore()
  }
}

describe('price history over a year of 5-minute samples', () => {
  it('answers 24 hourly, 30 daily and 12 monthly averages, each with one Query', async () => {
    // Prepare: a year of samples ending now, through the real fold, as the sampler's clock says.
    const project = await createProject()
    const now = new Date()
    const count = (365 * DAY) / FIVE_MINUTES
    const samples: PriceSample[] = Array.from({ length: count }, (_, index) => ({
      at: new Date(now.getTime() - (count - 1 - index) * FIVE_MINUTES),
      priceE18: priceAt(index),
    }))
    const foldStarted = performance.now()
    const { buckets } = await foldPriceSamples(project.id, samples, { now })
    const foldMs = performance.now() - foldStarted
    console.log(`folded ${count} samples into ${buckets} live buckets in ${foldMs.toFixed(0)} ms`)

    // Act
    const daily = await countingDynamoCalls(() =>
      getDailyPriceHistory({ projectId: project.id }, now),
    )
    const monthly = await countingDynamoCalls(() =>
      getMonthlyPriceHistory({ projectId: project.id }, now),
    )
    const yearly = await countingDynamoCalls(() =>
      getYearlyPriceHistory({ projectId: project.id }, now),
    )

    // Assess
    expect(count).toBe(105_120)
    expect([daily.calls, monthly.calls, yearly.calls]).toEqual([1, 1, 1])
    expect(daily.result.history).toHaveLength(24)
    expect(monthly.result.history).toHaveLength(30)
    expect(yearly.result.history).toHaveLength(12)

    const hours = expectedAverages(samples, (at) => Math.floor(at.getTime() / HOUR) * HOUR)
    const days = expectedAverages(samples, (at) => Math.floor(at.getTime() / DAY) * DAY)
    const months = expectedAverages(samples, (at) =>
      Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1),
    )
    const expected = (averages: Map<number, number>, size: number, key: string) =>
      [...averages]
        .sort(([a], [b]) => a - b)
        .slice(-size)
        .map(([start, avgPrice]) => ({ avgPrice, [key]: formatTimestamp(new Date(start)) }))
    expect(daily.result.history).toEqual(expected(hours, 24, 'hour'))
    expect(monthly.result.history).toEqual(expected(days, 30, 'day'))
    expect(yearly.result.history).toEqual(expected(months, 12, 'month'))
  })

  it('serves each history route publicly with a single DynamoDB Query', async () => {
    const project = await createProject()
    await foldPriceSamples(project.id, [{ at: new Date(), priceE18: 2n * 10n ** 18n }])

    for (const kind of ['daily', 'monthly', 'yearly'] as const) {
      const { result: response, calls } = await countingDynamoCalls(() =>
        requestHistory(kind, project.id),
      )

      expect(calls).toBe(1)
      expect(response.status).toBe(200)
      const key = { daily: 'hour', monthly: 'day', yearly: 'month' }[kind]
      expect(response.body).toEqual({
        ok: true,
        result: { history: [{ avgPrice: 2, [key]: expect.stringMatching(/ \+00:00$/) }] },
      })
    }
  })

  it('answers an empty history for a known project without samples', async () => {
    const project = await createProject()

    const response = await requestHistory('daily', project.id)

    expect(response).toEqual({ status: 200, body: { ok: true, result: { history: [] } } })
  })

  it('answers 404 for an unknown project, still with one Query', async () => {
    const { result: response, calls } = await countingDynamoCalls(() =>
      requestHistory('yearly', randomUUID()),
    )

    expect(calls).toBe(1)
    expect(response).toEqual({
      status: 404,
      body: { ok: false, error: { code: 404, message: 'no project with this id' } },
    })
  })

  it('answers 400 for a project id that is not a UUID', async () => {
    const response = await requestHistory('monthly', 'not-a-uuid')

    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({
      code: 400,
      details: [{ path: 'params.projectId', message: expect.any(String) }],
    })
  })
})
