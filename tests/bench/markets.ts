import { httpEvent, invoke } from '../support/httpEvent'
import { median, timeMany, timeOnce } from './stats'

type Handler = Parameters<typeof invoke>[0]

export interface HistoryFigure {
  route: string
  p50: number
  p99: number
  runs: number
  dynamoCalls: number
  itemsPerCall: number
  points: number
}

export interface MarketFigures {
  backfill: { symbol: string; buckets: number; boundaries: number; ms: number }
  history: HistoryFigure[]
  sampler: { projects: number; msPerRun: number; msPerProject: number }
}

// Modules are imported only after the local stack has put its settings in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

/**
 * A demo project's history filled again from the devnet's year (its backfill, from an empty
 * partition), then warm in-process timings of the three history routes on it, with DynamoDB
 * calls and items read per request; and the price sampler over the demo catalog.
 */
export async function measureMarkets(runs: number): Promise<MarketFigures> {
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const { backfillPriceHistory } = await load<
    typeof import('../../lib/markets/backfillPriceHistory')
  >('../../lib/markets/backfillPriceHistory')
  const { openPriceHistory } = await load<typeof import('../../lib/db/priceBucket')>(
    '../../lib/db/priceBucket',
  )
  const { samplePrices } = await load<typeof import('../../lib/markets/samplePrices')>(
    '../../lib/markets/samplePrices',
  )
  const { listProjects } = await load<typeof import('../../lib/db/project')>('../../lib/db/project')
  const route = async (file: string) =>
    (await load<{ handler: Handler }>(`../../functions/price/${file}`)).handler

  const projects = await listProjects()
  const demo = projects.find((project) => project.symbol === 'LINK') ?? projects[0]
  if (!demo) throw new Error('no demo project')
  // The demo token under an id of its own, so its partition starts empty.
  const projectId = crypto.randomUUID()
  await openPriceHistory(projectId)
  let buckets = 0
  let boundaries = 0
  const backfillMs = await timeOnce(async () => {
    const [outcome] = await backfillPriceHistory({ projects: [{ ...demo, id: projectId }] })
    buckets = outcome?.written ?? 0
    boundaries = outcome?.boundariesRead ?? 0
  })

  let calls = 0
  let items = 0
  const client = db()
  const send = client.send.bind(client)
  client.send = (async (...args: Parameters<typeof send>) => {
    calls += 1
    const output = (await (send(...args) as unknown as Promise<unknown>)) as { Count?: number }
    items += output.Count ?? 0
    return output
  }) as typeof client.send

  const history: HistoryFigure[] = []
  for (const [name, file] of [
    ['daily', 'getDailyPriceHistory'],
    ['monthly', 'getMonthlyPriceHistory'],
    ['yearly', 'getYearlyPriceHistory'],
  ] as const) {
    const handler = await route(file)
    const routeKey = `GET /api/v1/price/history/${name}/{projectId}`
    const request = () => invoke(handler, httpEvent({ routeKey, pathParameters: { projectId } }))
    const first = await request() // warm
    calls = 0
    items = 0
    const timing = await timeMany(runs, () => request())
    history.push({
      route: `GET /v1/price/history/${name}/{id}`,
      ...timing,
      dynamoCalls: calls / runs,
      itemsPerCall: items / calls,
      points: (first.body.result as { history: unknown[] }).history.length,
    })
  }
  client.send = send

  // Demo catalog only: the bench project has no pool, so it is left out.
  await samplePrices({ projects })
  const samplerRuns: number[] = []
  for (let run = 0; run < 5; run += 1) {
    samplerRuns.push((await samplePrices({ projects })).durationMs)
  }
  const msPerRun = median(samplerRuns)
  return {
    backfill: { symbol: demo.symbol, buckets, boundaries, ms: backfillMs },
    history,
    sampler: { projects: projects.length, msPerRun, msPerProject: msPerRun / projects.length },
  }
}
