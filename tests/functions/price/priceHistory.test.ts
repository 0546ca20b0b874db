import '../../support/env'
import { randomUUID } from 'node:crypto'
import { formatUnits } from 'viem'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { handler as dailyHandler } from '../../../functions/price/getDailyPriceHistory'
import { handler as monthlyHandler } from '../../../functions/price/getMonthlyPriceHistory'
import { handler as yearlyHandler } from '../../../functions/price/getYearlyPriceHistory'
import { db } from '../../../lib/db/client'
import { readPriceState } from '../../../lib/db/priceBoundary'
import { type PriceBucket, queryPriceWindow } from '../../../lib/db/priceBucket'
import type { PriceGrain } from '../../../lib/db/priceGrains'
import { listProjects, type Project, projectId } from '../../../lib/db/project'
import { formatTimestamp } from '../../../lib/formatTimestamp'
import { windowStart } from '../../../lib/markets/priceGrains'
import { samplePrices } from '../../../lib/markets/samplePrices'
import { httpEvent, invoke } from '../../support/httpEvent'
import { TwapReference } from '../../support/independentTwap'
import { createProject } from '../../support/marketFixtures'

// The history routes on the devnets' year (DECISIONS §8.3): the demo catalog was imported when
// the stack started, which filled its windows from the chain, and the sampler keeps them.

const routes = {
  daily: {
    handler: dailyHandler,
    routeKey: 'GET /api/v1/price/history/daily/{projectId}',
    grain: 'hour',
    key: 'hour',
  },
  monthly: {
    handler: monthlyHandler,
    routeKey: 'GET /api/v1/price/history/monthly/{projectId}',
    grain: 'day',
    key: 'day',
  },
  yearly: {
    handler: yearlyHandler,
    routeKey: 'GET /api/v1/price/history/yearly/{projectId}',
    grain: 'month',
    key: 'month',
  },
} as const

function requestHistory(kind: keyof typeof routes, id: string) {
  const { handler, routeKey } = routes[kind]
  return invoke(handler, httpEvent({ routeKey, pathParameters: { projectId: id } }))
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

const deployments = inject('deployments')
const demoIds = new Set(
  Object.values(deployments).flatMap((deployment) =>
    [
      deployment.usdStablecoin,
      ...[...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo].map(
        (token) => token.address,
      ),
    ].map((address) => projectId(deployment.network, address)),
  ),
)

/**
 * The project's path and its three windows as a finished run left them. serverless offline's
 * scheduled sampler runs beside this file: caught between its review's path write and its bucket
 * writes, the open buckets are still of the review before. Such a project is sampled here (its
 * writes are of the newest review, so they stand) and read again.
 */
async function settledWindows(project: Project, now: Date) {
  for (let attempt = 1; ; attempt += 1) {
    const { path } = await readPriceState(project.id, { buckets: [], boundaries: [], now })
    if (!path) throw new Error(`${project.symbol} has no pricing path`)
    const windows = Object.fromEntries(
      await Promise.all(
        (['hour', 'day', 'month'] as const).map(async (grain) => [
          grain,
          (await queryPriceWindow(project.id, grain, windowStart(grain, now))).buckets,
        ]),
      ),
    ) as Record<PriceGrain, PriceBucket[]>
    const behind = Object.values(windows)
      .map((buckets) => buckets.at(-1))
      .filter(
        (open) =>
          open &&
          (open.pathId !== path.id ||
            open.pathReviewedAt?.getTime() !== path.reviewedAt?.getTime()),
      )
    if (behind.length === 0) return { path, windows }
    if (attempt === 3) {
      throw new Error(
        `${project.symbol}: open buckets of ${JSON.stringify(behind.map((open) => [open?.pathId, open?.pathReviewedAt]))} after 3 runs, the path ${path.id} reviewed at ${path.reviewedAt?.toISOString()}`,
      )
    }
    const run = await samplePrices({ projects: [project] })
    expect(run.historyFailed).toEqual([])
  }
}

describe('price history from day one, on the devnets that have lived a year', () => {
  let demo: Project[]
  beforeAll(async () => {
    demo = (await listProjects()).filter((project) => demoIds.has(project.id))
    // The sampler's run brings each window up to this hour (the stack may have started in the last).
    const run = await samplePrices({ projects: demo })
    expect(run.failed).toEqual([])
    expect(run.historyFailed).toEqual([])
  }, 120_000)

  it('answers full windows for every demo project: 24 hours, 30 days, 12 months', async () => {
    const counts: Record<string, number[]> = {}
    for (const project of demo) {
      const name = `${project.network}:${project.symbol}`
      counts[name] = []
      for (const kind of ['daily', 'monthly', 'yearly'] as const) {
        const response = await requestHistory(kind, project.id)
        expect(response.status).toBe(200)
        counts[name]?.push((response.body.result as { history: unknown[] }).history.length)
      }
    }
    console.log(`buckets per window (24 h / 30 d / 12 m): ${JSON.stringify(counts)}`)

    expect(demo.length).toBe(demoIds.size)
    expect(Object.values(counts)).toEqual(demo.map(() => [24, 30, 12]))
  })

  it('gives every bucket the time-weighted average of its pools from their accumulators at its boundaries', async () => {
    // Prepare: each project's pools, as the service stored them; the reference reads the chain.
    const references = Object.fromEntries(
      Object.values(deployments).map((deployment) => [
        deployment.network,
        new TwapReference(deployment.rpcUrl),
      ]),
    )
    const now = new Date()
    let compared = 0
    const paths: string[] = []
    for (const project of demo) {
      const { path, windows } = await settledWindows(project, now)
      paths.push(
        `${project.network}:${project.symbol} ${path.hops.map((hop) => hop.protocol).join('>') || '(1 USD)'}`,
      )
      const reference = references[project.network]
      for (const grain of ['hour', 'day', 'month'] as const satisfies PriceGrain[]) {
        const buckets = windows[grain]

        // Assess: each average equals the reference's over the same span, to the last digit.
        for (const bucket of buckets) {
          const expected = await reference?.averageE18(
            path,
            BigInt(bucket.start.getTime() / 1000),
            BigInt(Math.floor(bucket.coveredTo.getTime() / 1000)),
            bucket.minDepths,
          )
          expect({
            symbol: project.symbol,
            grain,
            start: bucket.start,
            pathId: bucket.pathId,
            averageE18: bucket.averageE18,
          }).toEqual({
            symbol: project.symbol,
            grain,
            start: bucket.start,
            pathId: path.id,
            averageE18: expected,
          })
          compared += 1
        }
      }
    }
    console.log(
      `${compared} buckets of ${demo.length} projects equal the reference; paths: ${paths.join(', ')}`,
    )
    expect(compared).toBeGreaterThanOrEqual(demo.length * 66)
  }, 300_000)

  it('answers the stored averages, oldest first, each stamped with its bucket start, in one Query', async () => {
    const link = demo.find((project) => project.symbol === 'LINK' && project.network === 'ethereum')
    if (!link) throw new Error('no demo LINK')
    for (const kind of ['daily', 'monthly', 'yearly'] as const) {
      const { grain, key } = routes[kind]
      const { result: response, calls } = await countingDynamoCalls(() =>
        requestHistory(kind, link.id),
      )
      const { buckets } = await queryPriceWindow(link.id, grain, windowStart(grain, new Date()))

      expect(calls).toBe(1)
      const history = (response.body.result as { history: Array<Record<string, unknown>> }).history
      // The open bucket may have moved on if a scheduled sampler ran in between: closed ones not.
      expect(history.slice(0, -1)).toEqual(
        buckets.slice(0, -1).map((bucket) => ({
          avgPrice: Number(formatUnits(bucket.averageE18, 18)),
          [key]: formatTimestamp(bucket.start),
        })),
      )
      expect(history.at(-1)?.[key]).toBe(formatTimestamp(buckets.at(-1)?.start ?? new Date(0)))
    }
  })

  it('answers an empty history for a known project without pools', async () => {
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
