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
  fold: { samples: number; buckets: number; ms: number }
  history: HistoryFigure[]
  sampler: { projects: number; msPerRun: number; msPerProject: number }
}

// Modules are imported only after the local stack has put its settings in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

const FIVE_MINUTES = 5 * 60 * 1000

/**
 * A year of 5-minute samples folded into one project's buckets, then warm in-process timings of
 * the three history routes on it, with DynamoDB calls and items read per request; and the price
 * sampler over the demo catalog.
 */
export async function measureMarkets(runs: number): Promise<MarketFigures> {
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const { importCatalogEntries } = await load<typeof import('../../lib/catalog/importCatalog')>(
    '../../lib/catalog/importCatalog',
  )
  const { foldPriceSamples } = await load<typeof import('../../lib/markets/foldPriceSamples')>(
    '../../lib/markets/foldPriceSamples',
  )
  const { samplePrices } = await load<typeof import('../../lib/markets/samplePrices')>(
    '../../lib/markets/samplePrices',
  )
  const route = async (file: string) =>
    (await load<{ handler: Handler }>(`../../functions/price/${file}`)).handler

  const [projectId = ''] = await importCatalogEntries([
    {
      network: 'ethereum',
      address: '0x000000000000000000000000000000000000bE4c',
      name: 'Bench history',
      symbol: 'BENCH',
      decimals: 18,
      industry: '',
      description: 'A project for the benchmark (demo data).',
      social: {},
      tags: [],
      categories: [],
    },
  ])
  const now = new Date()
  const count = (365 * 24 * 60 * 60 * 1000) / FIVE_MINUTES
  const samples = Array.from({ length: count }, (_, index) => ({
    at: new Date(now.getTime() - (count - 1 - index) * FIVE_MINUTES),
    priceE18: 10n ** 18n + BigInt(index) * 10n ** 12n,
  }))
  let buckets = 0
  const foldMs = await timeOnce(async () => {
    buckets = (await foldPriceSamples(projectId, samples, { now })).buckets
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
  const { listProjects } = await load<typeof import('../../lib/db/project')>('../../lib/db/project')
  const projects = (await listProjects()).filter((project) => project.id !== projectId)
  await samplePrices({ projects })
  const samplerRuns: number[] = []
  for (let run = 0; run < 5; run += 1) {
    samplerRuns.push((await samplePrices({ projects })).durationMs)
  }
  const msPerRun = median(samplerRuns)
  return {
    fold: { samples: count, buckets, ms: foldMs },
    history,
    sampler: { projects: projects.length, msPerRun, msPerProject: msPerRun / projects.length },
  }
}
