import { getBlock, readContract } from 'viem/actions'
import { erc20Abi } from 'viem'
import { mapConcurrently } from '../mapConcurrently'
import { onChain, translateChainError } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { findBlockAtTime } from '../chain/findBlockAtTime'
import { findDeploymentBlock } from '../chain/findDeploymentBlock'
import { readPools } from '../routing/providers/readPools'
import { readSwapVolumes } from '../routing/providers/readSwapVolumes'
import { pairsWith } from '../routing/providers/tokenPairs'
import { loadChainConfig, loadServedNetworks } from '../config'
import type { NetworkName } from '../networkNames'
import {
  listProjectMarkets,
  type MarketMetrics,
  type ProjectMarket,
  setMarketMetrics,
} from '../db/marketStats'
import { failureReason } from './failureReason'
import { marketCaps } from './marketCaps'

export interface SyncMarketsParameters {
  clock?: () => Date
}

export interface SyncMarketsReturnType {
  at: Date
  synced: number
  failed: Array<{ network: NetworkName; projectId?: string; reason: string }>
  durationMs: number
}

type ChainMetrics = Omit<MarketMetrics, 'marketRank' | 'syncedAt'>

const VOLUME_WINDOW_SECONDS = 24n * 60n * 60n
const CONCURRENCY = 8

/**
 * What the chain says about the projects of one network: the V2 pairs and V3 pools (configured
 * fee tiers) holding each token against every known token, the wrapped native coin and the
 * stablecoin, read by the routing engine's pool provider (PoolLens, one round trip); the tokens
 * swapped on all of them over the last 24 h; total supplies; and the deployment time of contracts
 * not dated yet.
 */
async function readNetworkMetrics(
  network: NetworkName,
  projects: readonly ProjectMarket[],
  at: Date,
  failed: SyncMarketsReturnType['failed'],
): Promise<Map<string, ChainMetrics>> {
  const client = publicClient(network)
  const { wrappedNative, usdStablecoin } = loadChainConfig(network)
  const head = await onChain(network, () => getBlock(client, { blockTag: 'latest' }))
  const pairs = pairsWith(
    projects.map(({ project }) => project.address),
    [wrappedNative, usdStablecoin],
  )
  const pools = await readPools({ network, pairs, blockNumber: head.number })
  const since = BigInt(Math.floor(at.getTime() / 1000)) - VOLUME_WINDOW_SECONDS
  const volumes = await onChain(network, async () =>
    readSwapVolumes(client, {
      pools,
      fromBlock: await findBlockAtTime(client, { timestamp: since, latest: head }),
      toBlock: head.number,
    }),
  )
  const metrics = new Map<string, ChainMetrics>()
  await mapConcurrently(projects, CONCURRENCY, async ({ project, market }) => {
    const token = project.address.toLowerCase()
    const known: ChainMetrics = {
      volume24h: volumes.get(token) ?? 0n,
      // The V2 pairs holding the token (its pairs' count as before V3 volumes were read).
      marketPairs: pools.filter(
        (pool) =>
          pool.protocol === 'v2' &&
          (pool.token0.toLowerCase() === token || pool.token1.toLowerCase() === token),
      ).length,
    }
    metrics.set(project.id, known)
    try {
      known.totalSupply = await onChain(network, () =>
        readContract(client, {
          address: project.address,
          abi: erc20Abi,
          functionName: 'totalSupply',
        }),
      )
      // A contract's deployment time never changes: found once, then kept on the project.
      if (!market.contractInception) {
        const block = await onChain(network, () =>
          findDeploymentBlock(client, { address: project.address, latestBlock: head.number }),
        )
        if (block !== undefined) {
          const { timestamp } = await onChain(network, () =>
            getBlock(client, { blockNumber: block }),
          )
          known.contractInception = new Date(Number(timestamp) * 1000)
        }
      }
    } catch (error) {
      failed.push({ network, projectId: project.id, reason: failureReason(error) })
    }
  })
  return metrics
}

/** Ranks by market cap, largest first; a project whose cap is not known yet ranks 0. */
function rankByMarketCap(projects: ReadonlyArray<ProjectMarket>): Map<string, number> {
  const ranked = projects
    .map((entry) => ({
      id: entry.project.id,
      cap: marketCaps(entry.project, entry.market).marketCapE18,
    }))
    .filter(({ cap }) => cap > 0n)
    .sort((a, b) => (a.cap === b.cap ? a.id.localeCompare(b.id) : a.cap > b.cap ? -1 : 1))
  return new Map(ranked.map(({ id }, index) => [id, index + 1]))
}

/**
 * The market-sync job: refreshes the slower metrics of every project (total supply, pairs, 24 h
 * volume, contract inception, rank) so the project route stays a single read. A network or a
 * project that fails keeps its previous metrics and is reported; the rest carry on.
 */
export async function syncMarkets({
  clock = () => new Date(),
}: SyncMarketsParameters = {}): Promise<SyncMarketsReturnType> {
  const started = Date.now()
  const at = clock()
  const projects = await listProjectMarkets()
  const failed: SyncMarketsReturnType['failed'] = []
  const learned = new Map<string, ChainMetrics>()
  await Promise.all(
    // The networks the stage serves: another's projects (a network no longer served) stay as they are.
    loadServedNetworks().map(async (network) => {
      const ofNetwork = projects.filter(({ project }) => project.network === network)
      if (ofNetwork.length === 0) return
      try {
        const metrics = await readNetworkMetrics(network, ofNetwork, at, failed)
        for (const [id, chainMetrics] of metrics) learned.set(id, chainMetrics)
      } catch (error) {
        failed.push({ network, reason: failureReason(translateChainError(error, network)) })
      }
    }),
  )
  const updated = projects.map(({ project, market }) => {
    const chainMetrics = learned.get(project.id)
    return {
      project,
      market: { ...market, totalSupply: chainMetrics?.totalSupply ?? market.totalSupply },
    }
  })
  const ranks = rankByMarketCap(updated)
  const written = await mapConcurrently(projects, CONCURRENCY, ({ project }) =>
    setMarketMetrics(project.id, {
      ...learned.get(project.id),
      marketRank: ranks.get(project.id) ?? 0,
      syncedAt: at,
    }),
  )
  return {
    at,
    synced: written.filter(Boolean).length,
    failed,
    durationMs: Date.now() - started,
  }
}
