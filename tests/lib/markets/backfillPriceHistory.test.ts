import type { NetworkName } from '../../../lib/networkNames'
import '../../support/env'
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { db } from '../../../lib/db/client'
import { hopPools, pathPools, readPriceState } from '../../../lib/db/priceBoundary'
import { openPriceHistory, queryPriceWindow } from '../../../lib/db/priceBucket'
import { listProjects, type Project, projectId } from '../../../lib/db/project'
import { backfillPriceHistory } from '../../../lib/markets/backfillPriceHistory'
import { FORWARD_REACH_MS } from '../../../lib/markets/boundaryReader'
import { addBuckets, backfillBuckets, windowStart } from '../../../lib/markets/priceGrains'
import { captureLogs } from '../../support/captureLogs'
import { countRequests, formatCounts } from '../../support/requestCounters'

// The backfill of DECISIONS §8.3 on the devnets' year: the demo catalog was imported (and so
// backfilled) when the stack started; here the same tokens are backfilled again under ids of
// their own, later, with and without an archive node.

const deployments = inject('deployments')
const GRAINS = ['hour', 'day', 'month'] as const

function demoToken(network: NetworkName, symbol: string): string {
  const deployment = deployments[network]
  const token = [...deployment.tokens, ...deployment.v3OnlyTokens].find(
    (candidate) => candidate.symbol === symbol,
  )
  if (!token) throw new Error(`no demo ${symbol}`)
  return projectId(network, token.address)
}

/** The same token under a fresh id, its history opened (as an import does) and empty. */
async function lateTwin(project: Project): Promise<Project> {
  const twin = { ...project, id: randomUUID() }
  await openPriceHistory(twin.id)
  return twin
}

/**
 * What a backfill at `now` fills: the buckets begun by then, and the distinct instants they
 * start and (if passed) end at, each a boundary read once.
 */
function backfillAt(now: Date): { buckets: number; boundaries: number } {
  const edges = new Set<number>()
  let buckets = 0
  for (const bucket of backfillBuckets(now)) {
    if (bucket.start.getTime() >= now.getTime()) continue
    buckets += 1
    edges.add(bucket.start.getTime())
    const end = addBuckets(bucket.grain, bucket.start, 1).getTime()
    if (end <= now.getTime()) edges.add(end)
  }
  return { buckets, boundaries: edges.size }
}

let projects: Map<string, Project>
beforeAll(async () => {
  projects = new Map((await listProjects()).map((project) => [project.id, project]))
})

function demo(network: NetworkName, symbol: string): Project {
  const project = projects.get(demoToken(network, symbol))
  if (!project) throw new Error(`demo ${symbol} not imported`)
  return project
}

describe('backfilling the price history from the chain', () => {
  const logs = captureLogs('INFO')

  it('fills a project imported late with the buckets of one imported early', async () => {
    for (const early of [demo('ethereum', 'LINK'), demo('altchain', 'XVS')]) {
      // Prepare: the pools the early import chose, so both read the same pools.
      const now = new Date()
      const { path } = await readPriceState(early.id, { buckets: [], boundaries: [], now })
      if (!path) throw new Error(`${early.symbol} has no path`)
      const late = await lateTwin(early)

      // Act
      const [outcome] = await backfillPriceHistory({
        projects: [late],
        paths: new Map([[late.id, path]]),
        now,
      })

      // Assess: every bucket closed in both is the same, to the last digit.
      expect(outcome).toMatchObject({ pathId: path.id, written: 70 })
      let compared = 0
      const closedCounts: string[] = []
      for (const grain of GRAINS) {
        const [before, after] = await Promise.all(
          [early, late].map(({ id }) => queryPriceWindow(id, grain, windowStart(grain, now))),
        )
        const closed = (bucket: { grain: (typeof GRAINS)[number]; start: Date; coveredTo: Date }) =>
          bucket.coveredTo.getTime() === addBuckets(bucket.grain, bucket.start, 1).getTime()
        const earlyClosed = new Map(
          before?.buckets.filter(closed).map((bucket) => [bucket.start.getTime(), bucket]),
        )
        closedCounts.push(
          `${grain}: ${earlyClosed.size} early, ${after?.buckets.filter(closed).length} late`,
        )
        for (const bucket of after?.buckets.filter(closed) ?? []) {
          const match = earlyClosed.get(bucket.start.getTime())
          if (!match) continue
          expect({ grain, start: bucket.start, averageE18: bucket.averageE18 }).toEqual({
            grain,
            start: match.start,
            averageE18: match.averageE18,
          })
          compared += 1
        }
      }
      // 23 hours, 29 days and 11 months are closed in a window; the stack began this run.
      expect(
        compared,
        `${early.symbol} closed buckets: ${closedCounts.join(', ')}`,
      ).toBeGreaterThanOrEqual(55)
    }
  })

  it('reads each boundary once, with a bounded number of RPC calls, and resumes where it stopped', async () => {
    const figures: string[] = []
    for (const symbol of ['WHOLE', 'WBTC', 'ENS']) {
      const counter = countRequests(db())
      try {
        // Tokens whose paths have one, two and three hops.
        const token = [
          ...deployments.ethereum.zoo,
          ...deployments.ethereum.tokens,
          ...deployments.ethereum.v3OnlyTokens,
        ].find((candidate) => candidate.symbol === symbol)
        const project = projects.get(projectId('ethereum', token?.address ?? ''))
        if (!project) throw new Error(`no demo ${symbol}`)
        const twin = await lateTwin(project)
        const now = new Date()

        const [first] = await backfillPriceHistory({ projects: [twin], now })
        const firstRun = counter.take()
        const [second] = await backfillPriceHistory({ projects: [twin], now })
        const secondRun = counter.take()

        const { path } = await readPriceState(twin.id, { buckets: [], boundaries: [], now })
        // Every pool of the path is read at a boundary: a hop's median reads each of its pools.
        const pools = path ? pathPools(path) : []
        const callsPerBoundary = pools.reduce(
          (sum, pool) => sum + (pool.protocol === 'v2' ? 3 : 2),
          0,
        )
        figures.push(
          `${symbol} (${path?.hops
            .map((hop) =>
              hopPools(hop)
                .map((pool) => pool.protocol)
                .join('+'),
            )
            .join('>')}): ` +
            `${first?.boundariesRead} boundaries, ${first?.written} buckets; ` +
            `${firstRun.rpc.calls} RPC calls in ${firstRun.rpc.roundTrips} round trips ` +
            `(${formatCounts(firstRun.rpc.byMethod)}), ${firstRun.dynamo.calls} DynamoDB calls; ` +
            `again: ${second?.boundariesRead} boundaries, ${secondRun.rpc.calls} RPC calls, ` +
            `${secondRun.dynamo.calls} DynamoDB calls`,
        )
        // Each boundary once: 70 buckets on 70 boundaries, fewer in the first hour of a UTC day
        // (the open day and the open hour start at the same instant: 69) or of a month (68).
        const expected = backfillAt(now)
        expect(first).toMatchObject({
          written: expected.buckets,
          boundariesRead: expected.boundaries,
          outOfReach: 0,
        })
        // A boundary costs its block search (a few reads, shared across the window) and the
        // path's reads (3 calls a V2 pool, 2 a V3 pool); the path's choice its review's lens reads
        // (12 calls measured for WBTC's two hops of two V3 pools, since issue 39's depth reads).
        expect(firstRun.rpc.byMethod.eth_call).toBeLessThanOrEqual(
          expected.boundaries * callsPerBoundary + 16,
        )
        expect(firstRun.rpc.byMethod.eth_getBlockByNumber).toBeLessThanOrEqual(
          expected.boundaries * 4,
        )
        // Resumed: nothing closed is read again, only the open buckets up to now.
        expect(second).toMatchObject({ boundariesRead: 0, outOfReach: 0 })
        expect(second?.written).toBeLessThanOrEqual(3)
        expect(secondRun.rpc.calls).toBeLessThan(firstRun.rpc.calls / 10)
      } finally {
        counter.stop()
      }
    }
    console.log(`backfill of one project:\n${figures.join('\n')}`)
  })

  it('without an archive node, says so in the log (never the URL) and fills forward only', async () => {
    const project = await lateTwin(demo('ethereum', 'WBTC'))
    const now = new Date()

    const [outcome] = await backfillPriceHistory({
      projects: [project],
      archive: { ethereum: null },
      now,
    })

    const warning = logs
      .lines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find(
        (entry) => entry.message === 'no archive RPC node: the price history fills forward only',
      )
    expect(warning).toMatchObject({
      level: 'WARN',
      network: 'ethereum',
      setting: 'ETHEREUM_ARCHIVE_RPC_URL',
      projects: 1,
    })
    expect(logs.text()).not.toContain(deployments.ethereum.rpcUrl)
    expect(logs.text()).not.toContain('127.0.0.1')
    // Only boundaries a full node still holds were read: none older than its reach.
    expect(outcome?.outOfReach).toBeGreaterThanOrEqual(60)
    for (const grain of GRAINS) {
      const { buckets } = await queryPriceWindow(project.id, grain, windowStart(grain, now))
      for (const bucket of buckets) {
        expect(now.getTime() - bucket.start.getTime()).toBeLessThanOrEqual(FORWARD_REACH_MS)
      }
    }
  })
})
