import { type Address, erc20Abi } from 'viem'
import { readContract } from 'viem/actions'
import { publicClient } from '../chain/clients'
import { mapConcurrently } from '../mapConcurrently'
import { translateChainError } from '../chain/chainError'
import { listProjectMarkets } from '../db/marketStats'
import type { Project } from '../db/project'
import { failureReason } from './failureReason'
import { quoteUsdPrice } from './quoteUsdPrice'
import { recordPrice } from './recordPrice'

export interface SamplePricesParameters {
  /** The sampler's clock: every sample of one run carries its reading. */
  clock?: () => Date
  /** The projects to price; the whole catalog when absent. */
  projects?: readonly Project[]
}

export interface SamplePricesReturnType {
  at: Date
  sampled: Array<{ projectId: string; priceE18: bigint }>
  failed: Array<{ projectId: string; reason: string }>
  durationMs: number
}

const CONCURRENCY = 8
/**
 * Catalog tokens of a network tried as connectors of each price's route, at most: their pools
 * among themselves and with the ends are all read (pairs grow as the square), so the largest
 * market caps first (marketRank), then the unranked in catalog order. 8 give 13 tokens with the
 * ends and 3 base tokens: 78 pairs, ~17 lens calls in one round trip per price.
 */
export const SAMPLER_CONNECTOR_CANDIDATES = 8

/** Each network's connector candidates: ranked projects by rank, then the unranked. */
function connectorsByNetwork(
  catalog: ReadonlyArray<{ project: Project; marketRank: number }>,
): Map<string, Address[]> {
  const rankOf = (rank: number) => (rank > 0 ? rank : Number.MAX_SAFE_INTEGER)
  const ordered = [...catalog].sort((a, b) => rankOf(a.marketRank) - rankOf(b.marketRank))
  const connectors = new Map<string, Address[]>()
  for (const { project } of ordered) {
    const list = connectors.get(project.network) ?? []
    if (list.length < SAMPLER_CONNECTOR_CANDIDATES + 1) list.push(project.address)
    connectors.set(project.network, list)
  }
  return connectors
}

/**
 * The price sampler: prices every project on its network's DEX in USD and records the sample,
 * with the token's total supply read beside the price.
 * A project that fails (no liquidity, node down) is reported and the others carry on.
 */
export async function samplePrices({
  clock = () => new Date(),
  projects,
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
  const sampled: SamplePricesReturnType['sampled'] = []
  const failed: SamplePricesReturnType['failed'] = []
  await mapConcurrently(catalog, CONCURRENCY, async (project) => {
    try {
      // The catalog's tokens connect routes (a V3-only token pooled with LINK); one more is
      // kept above, so that SAMPLER_CONNECTOR_CANDIDATES remain besides the priced token.
      const candidates = (connectors.get(project.network) ?? []).filter(
        (address) => address !== project.address,
      )
      const [priceE18, totalSupply] = await Promise.all([
        quoteUsdPrice({
          ...project,
          connectorCandidates: candidates.slice(0, SAMPLER_CONNECTOR_CANDIDATES),
        }),
        // Beside the price (DECISIONS §8.3: the supply follows the chain, not only the market
        // sync); a token whose totalSupply fails keeps its last one, which the sync reports.
        readContract(publicClient(project.network), {
          address: project.address,
          abi: erc20Abi,
          functionName: 'totalSupply',
        }).catch(() => undefined),
      ])
      await recordPrice(project.id, { at, priceE18 }, { totalSupply })
      sampled.push({ projectId: project.id, priceE18 })
    } catch (error) {
      const reason = failureReason(translateChainError(error, project.network))
      failed.push({ projectId: project.id, reason })
    }
  })
  return { at, sampled, failed, durationMs: Date.now() - started }
}
