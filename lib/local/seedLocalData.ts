import { setTimeout as sleep } from 'node:timers/promises'
import { getAddress } from 'viem'
import { importCatalogEntries, parseCatalog } from '../catalog/importCatalog'
import { putNetwork } from '../db/network'
import { listProjects } from '../db/project'
import { DatabaseUnavailable } from '../errors'
import { type BackfilledProject, backfillPriceHistory } from '../markets/backfillPriceHistory'
import { samplePrices } from '../markets/samplePrices'
import { syncMarkets } from '../markets/syncMarkets'
import type { CatalogEntry } from '../../schemas/catalog'
import type { DexDeployment } from './deployDex'
import { SAMPLE_CATALOG } from './sampleCatalog'
import { seedChainHistory } from './seedChainHistory'

const SEED_ATTEMPTS = 3

/**
 * The demo catalog as catalog entries, with the addresses of this devnet's own deployments; the
 * token zoo is listed too, tagged `demo` and `token-zoo` like the rest of the demo data.
 */
export function sampleCatalogEntries(deployments: readonly DexDeployment[]): CatalogEntry[] {
  return deployments.flatMap((deployment) => {
    const { usdStablecoin } = SAMPLE_CATALOG[deployment.network]
    const stablecoin = { ...usdStablecoin, address: deployment.usdStablecoin }
    const listed = [stablecoin, ...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo]
    return listed.map((token) => ({
      network: deployment.network,
      address: token.address,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      industry: token.industry,
      description: `${token.description} (demo data)`,
      circulatingSupply: token.circulatingSupply,
      social: {
        website: token.links.website,
        twitter: token.links.twitter,
        telegram: token.links.telegram,
        discord: token.links.discord,
        github: token.links.github,
      },
      tags: [...token.tags],
      categories: [...token.categories],
    }))
  })
}

/**
 * Runs `write` again while a just-started DynamoDB Local misses the 1 s request timeout, as it can
 * on a busy machine. Only for idempotent writes (upserts, samples of the present).
 */
async function whileWarmingUp<Result>(write: () => Promise<Result>): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write()
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable) || attempt >= SEED_ATTEMPTS) throw error
      await sleep(1000)
    }
  }
}

/**
 * Lives each devnet's year of demo trades (lib/local/seedChainHistory.ts: a devnet that has
 * lived it already is left alone), seeds the networks and imports the demo catalog as
 * `npm run catalog:import` would, projects and their price-history markers; both are upserts,
 * so re-seeding is harmless. The table's price history is left to `fillPriceHistory`, which
 * reads it from the year the devnets lived. Returns the projects imported.
 */
export async function seedLocalData(
  deployments: readonly DexDeployment[],
  {
    priceHistory = true,
  }: {
    /** False: no year of trades on the devnets (a table for other tests). */
    priceHistory?: boolean
  } = {},
): Promise<BackfilledProject[]> {
  // Through the catalog file's own validation, so the demo catalog is held to the same rules.
  const catalog = parseCatalog(JSON.stringify({ projects: sampleCatalogEntries(deployments) }))
  const networks = whileWarmingUp(() =>
    Promise.all(
      deployments.map((deployment) => putNetwork(deployment.network, deployment.chainId)),
    ),
  )
  await Promise.all([
    networks,
    ...(priceHistory ? deployments.map((deployment) => seedChainHistory({ deployment })) : []),
  ])
  const ids = await whileWarmingUp(() => importCatalogEntries(catalog, { backfill: false }))
  return catalog.map((entry, index) => ({
    id: ids[index] ?? '',
    network: entry.network,
    address: getAddress(entry.address),
    decimals: entry.decimals,
  }))
}

export interface PriceHistoryRun {
  /** Buckets the backfill wrote from the devnets' year. */
  buckets: number
  /** The first sample and market sync after it. */
  market: MarketRun
}

/**
 * Fills the table's price history of `projects` from the year the devnets lived, as the catalog
 * import's backfill does (the last 24 hours, 30 days and 12 months), then takes the first sample
 * and market sync (warmMarketData). `npm start` runs it once the API answers: until it ends, the
 * history routes answer the buckets written so far.
 */
export async function fillPriceHistory(
  projects: readonly BackfilledProject[],
): Promise<PriceHistoryRun> {
  const outcomes = await whileWarmingUp(() => backfillPriceHistory({ projects }))
  const market = await warmMarketData()
  return { buckets: outcomes.reduce((sum, outcome) => sum + outcome.written, 0), market }
}

export interface MarketRun {
  /** Projects priced, on the first try or a later one. */
  sampled: number
  /** Of those, how many only on a retry (the first try met a timeout, as under load). */
  retried: number
  /** Projects still unpriced after every try, with the last reason. */
  failed: Array<{ projectId: string; reason: string }>
  /** Tries of the sampler over the projects that had failed (1 when none did). */
  attempts: number
}

/**
 * Runs the price sampler and the market sync once, so a fresh stack has a first history point
 * and project metrics before the schedules (every 5 and 10 minutes) first fire. The sampler
 * reports a project it could not price (a database or node timeout on a busy machine) instead of
 * throwing, so those projects are sampled again, up to SEED_ATTEMPTS tries in all.
 */
export async function warmMarketData(): Promise<MarketRun> {
  const first = await whileWarmingUp(() => samplePrices())
  let failed = first.failed
  let retried = 0
  let attempts = 1
  while (failed.length > 0 && attempts < SEED_ATTEMPTS) {
    await sleep(1000)
    attempts += 1
    const failedIds = new Set(failed.map(({ projectId }) => projectId))
    const projects = (await whileWarmingUp(() => listProjects())).filter((project) =>
      failedIds.has(project.id),
    )
    const again = await whileWarmingUp(() => samplePrices({ projects }))
    retried += again.sampled.length
    failed = again.failed
  }
  await whileWarmingUp(() => syncMarkets())
  return { sampled: first.sampled.length + retried, retried, failed, attempts }
}
