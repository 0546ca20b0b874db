import { erc20Abi } from 'viem'
import { readContract } from 'viem/actions'
import { publicClient } from '../chain/clients'
import { mapConcurrently } from '../mapConcurrently'
import { translateChainError } from '../chain/chainError'
import type { NetworkName } from '../networkNames'
import { listProjectMarkets } from '../db/marketStats'
import type { Project } from '../db/project'
import { type BoundaryReader, createBoundaryReader } from './boundaryReader'
import { connectorsByNetwork, connectorsFor } from './connectorCandidates'
import { failureReason } from './failureReason'
import { fillPriceBuckets } from './fillPriceBuckets'
import { forwardBuckets } from './priceGrains'
import { pricingPathResolver } from './pricingPathResolver'
import type { Random } from './pricingPathReview'
import { quoteUsdPrice } from './quoteUsdPrice'
import { recordPrice } from './recordPrice'

export interface SamplePricesParameters {
  /** The sampler's clock: every sample of one run carries its reading. */
  clock?: () => Date
  /** The projects to price; the whole catalog when absent. */
  projects?: readonly Project[]
  /** Draws each review's next moment (the CSPRNG unless a test injects its own). */
  random?: Random
}

export interface SamplePricesReturnType {
  at: Date
  sampled: Array<{ projectId: string; priceE18: bigint }>
  failed: Array<{ projectId: string; reason: string }>
  /** Priced projects whose history could not be read this run (the next run tries again). */
  historyFailed: Array<{ projectId: string; reason: string }>
  /** Buckets written, boundaries read from the chain, and those no node could serve. */
  history: { buckets: number; boundariesRead: number; outOfReach: number }
  durationMs: number
}

const CONCURRENCY = 8

/**
 * A project's USD price (a sell quote on its best route) and, beside it, its total supply
 * (DECISIONS §8.3: the supply follows the chain, not only the market sync); a token whose
 * totalSupply fails keeps its last one, which the sync reports.
 */
function readPriceAndSupply(
  project: Project,
  connectorCandidates: ReturnType<typeof connectorsFor>,
): Promise<[bigint, bigint | undefined]> {
  return Promise.all([
    quoteUsdPrice({ ...project, connectorCandidates }),
    readContract(publicClient(project.network), {
      address: project.address,
      abi: erc20Abi,
      functionName: 'totalSupply',
    }).catch(() => undefined),
  ])
}

/**
 * The price sampler: prices every project on its network's DEX in USD (a sell quote on its best
 * route, the project's `price`), with the token's total supply read beside it; and reads the
 * boundaries of its price history (DECISIONS §8.3): the accumulators of the project's pricing
 * path at each bucket boundary passed since the last run (FORWARD_BUCKETS back), closing those
 * buckets with their exact time-weighted averages, and the open buckets' averages up to now. The
 * price changes compare the path's own price now with the buckets' averages. Each run samples the
 * ±2 % depth of the path's pools (one lens round trip), which weighs them in the open buckets'
 * medians by the least they held (DECISIONS §10.4); a path is reviewed at a moment drawn at random
 * within a day of its last review, or at once when a sample finds a hop less than half as deep
 * (pricingPathReview.ts): that run's review is its sample.
 * A project that fails (no liquidity, node down) is reported and the others carry on.
 */
export async function samplePrices({
  clock = () => new Date(),
  projects,
  random,
}: SamplePricesParameters = {}): Promise<SamplePricesReturnType> {
  const started = Date.now()
  const at = clock()
  const ranked = projects
    ? projects.map((project) => ({ project, marketRank: 0 }))
    : (await listProjectMarkets()).map(({ project, market }) => ({
        project,
        marketRank: market.marketRank,
      }))
  const catalog = ranked.map(({ project }) => project)
  const connectors = connectorsByNetwork(ranked)
  const readers = new Map<NetworkName, BoundaryReader>()
  const readerOf = (network: NetworkName) => {
    let reader = readers.get(network)
    if (!reader) readers.set(network, (reader = createBoundaryReader({ network, now: at })))
    return reader
  }
  const sampled: SamplePricesReturnType['sampled'] = []
  const failed: SamplePricesReturnType['failed'] = []
  const historyFailed: SamplePricesReturnType['historyFailed'] = []
  const history = { buckets: 0, boundariesRead: 0, outOfReach: 0 }
  const historyFailure = (project: Project, error: unknown) => {
    const reason = failureReason(translateChainError(error, project.network))
    historyFailed.push({ projectId: project.id, reason })
  }
  await mapConcurrently(catalog, CONCURRENCY, async (project) => {
    // The catalog's tokens connect routes (a V3-only token pooled with LINK).
    const candidates = connectorsFor(connectors, project)
    let priceE18: bigint
    let totalSupply: bigint | undefined
    try {
      ;[priceE18, totalSupply] = await readPriceAndSupply(project, candidates)
    } catch (error) {
      const reason = failureReason(translateChainError(error, project.network))
      failed.push({ projectId: project.id, reason })
      return
    }
    let midE18: bigint | undefined
    try {
      const filled = await fillPriceBuckets({
        projectId: project.id,
        buckets: forwardBuckets(at),
        now: at,
        reader: readerOf(project.network),
        resolvePath: pricingPathResolver({
          project,
          connectors: candidates,
          policy: 'scheduled',
          now: at,
          random,
        }),
      })
      midE18 = filled.spotE18
      history.buckets += filled.written
      history.boundariesRead += filled.boundariesRead
      history.outOfReach += filled.outOfReach
      if (filled.failure !== undefined) historyFailure(project, filled.failure)
    } catch (error) {
      historyFailure(project, error)
    }
    try {
      await recordPrice(project.id, { at, priceE18, midE18 }, { totalSupply })
      sampled.push({ projectId: project.id, priceE18 })
    } catch (error) {
      failed.push({ projectId: project.id, reason: failureReason(error) })
    }
  })
  return { at, sampled, failed, historyFailed, history, durationMs: Date.now() - started }
}
