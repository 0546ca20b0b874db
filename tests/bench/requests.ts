import type { LocalStack } from '../../lib/local/localStack'
import type { RequestTally } from '../support/requestCounters'
import { ms, percentile } from './stats'

export interface RequestFigure {
  route: string
  p50: number
  p99: number
  runs: number
  /** Per request, averaged over the runs. */
  dynamoCalls: number
  rpcCalls: number
  rpcRoundTrips: number
}

// Modules are imported only after the local stack has put its settings in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

/**
 * Warm, in-process timings of every /api/v1 route against the local engines, with the DynamoDB
 * and JSON-RPC calls each request makes (the requests of tests/support/routeRequests.ts, the
 * counters of tests/support/requestCounters.ts). Each run is prepared (a fresh nonce, session
 * or watch state) untimed and uncounted, then sent once; the first run of a route only warms it.
 */
export async function measureRequests(
  runs: number,
  deployments: LocalStack['deployments'],
): Promise<RequestFigure[]> {
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const { routeRequests } = await load<typeof import('../support/routeRequests')>(
    '../support/routeRequests',
  )
  const { countRequests } = await load<typeof import('../support/requestCounters')>(
    '../support/requestCounters',
  )
  const routes = await routeRequests(deployments)
  const counter = countRequests(db())
  const figures: RequestFigure[] = []
  try {
    for (const route of routes) {
      // scrypt (N=2^17, about 0.7 s a hash) dominates the account routes: fewer runs.
      const times = route.slow ? Math.max(3, Math.ceil(runs / 5)) : runs
      await (
        await route.prepare()
      )()
      const samples: number[] = []
      const tallies: RequestTally[] = []
      for (let run = 0; run < times; run += 1) {
        const request = await route.prepare()
        counter.take()
        const started = performance.now()
        const response = await request()
        samples.push(performance.now() - started)
        tallies.push(counter.take())
        if (response.status !== 200)
          throw new Error(`${route.routeKey} answered ${response.status}`)
      }
      const mean = (pick: (tally: RequestTally) => number) =>
        tallies.reduce((sum, tally) => sum + pick(tally), 0) / times
      figures.push({
        route: route.routeKey.replace(' /api', ' '),
        p50: percentile(samples, 0.5),
        p99: percentile(samples, 0.99),
        runs: times,
        dynamoCalls: mean((tally) => tally.dynamo.calls),
        rpcCalls: mean((tally) => tally.rpc.calls),
        rpcRoundTrips: mean((tally) => tally.rpc.roundTrips),
      })
    }
  } finally {
    counter.stop()
  }
  return figures
}

const count = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1))

/** The BENCHMARKS.md section of the warm request figures. */
export function requestsSection(figures: RequestFigure[]): string[] {
  return [
    '## Warm requests, in-process against the local engines',
    '',
    'Every /api/v1 route, warm (the first request of each is not counted), one request at a ' +
      'time. Calls are per request: DynamoDB commands (SDK retries not counted), JSON-RPC calls ' +
      'and the HTTP round trips carrying them (viem batches calls made together). Authenticated ' +
      "routes include the session check (one `GetItem`, before the route's own work or beside " +
      'it: docs/architecture.md). Swaps, transfers and submits ' +
      "send an Idempotency-Key (its claim a `PutItem`, its completion in the trade's " +
      'transaction) with the router already approved. ' +
      'The exact counts are asserted in tests/functions/requestCosts.test.ts.',
    '',
    '| route | p50 | p99 | runs | DynamoDB calls | RPC calls | RPC round trips |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.map(
      (figure) =>
        `| ${figure.route} | ${ms(figure.p50)} | ${ms(figure.p99)} | ${figure.runs} | ` +
        `${count(figure.dynamoCalls)} | ${count(figure.rpcCalls)} | ${count(figure.rpcRoundTrips)} |`,
    ),
    '',
  ]
}
