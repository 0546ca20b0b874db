import type { ChainClient } from '../chain/clients'
import { translateChainError } from '../chain/chainError'
import { NETWORK_NAMES, type NetworkName } from '../networkNames'
import { listProjectMarkets } from '../db/marketStats'
import { type PricingPath, putBoundaryReadingsInBatches } from '../db/priceBoundary'
import { putFinalPriceBuckets } from '../db/priceBucket'
import type { Project } from '../db/project'
import { logger } from '../logger'
import { mapConcurrently } from '../mapConcurrently'
import { type BoundaryReader, createBoundaryReader } from './boundaryReader'
import { connectorsByNetwork, connectorsFor } from './connectorCandidates'
import { failureReason } from './failureReason'
import { fillPriceBuckets } from './fillPriceBuckets'
import { backfillBuckets } from './priceGrains'
import { pricingPathResolver } from './pricingPathResolver'
import type { Random } from './pricingPathReview'

/** Projects backfilled at once: each reads its path at ~70 boundaries, four at a time. */
const PROJECT_CONCURRENCY = 4

export type BackfilledProject = Pick<Project, 'id' | 'network' | 'address' | 'decimals'>

export interface BackfillPriceHistoryParameters {
  projects: readonly BackfilledProject[]
  now?: Date
  /** Each network's archive node: the configured one unless given; null for none. */
  archive?: Partial<Record<NetworkName, ChainClient | null>>
  /** The pools to read a project with (by project id), instead of choosing them. */
  paths?: ReadonlyMap<string, PricingPath>
  /** Draws each review's next moment (the CSPRNG unless a test injects its own). */
  random?: Random
}

export interface BackfillOutcome {
  projectId: string
  /** Undefined when the token has no path to the USD stablecoin (nothing to fill). */
  pathId?: string
  written: number
  boundariesRead: number
  /** Boundaries left unread: older than the node's reach, with no archive node. */
  outOfReach: number
  /** Why some of its buckets are not filled (a node failure); a run again resumes them. */
  error?: string
}

/**
 * Fills the projects' last 24 hours, 30 days and 12 months of buckets, and the buckets the price
 * changes compare against, from the chain (DECISIONS §8.3): each project's pricing path read at
 * the last block before every boundary, found by timestamp, which needs state at past blocks: a
 * network's archive node (`<NET>_ARCHIVE_RPC_URL`). Without one it says so once per network in
 * the log and fills forward only (the boundaries its RPC node still holds). Bounded (the windows'
 * ~70 boundaries a project) and resumable: buckets already final and boundaries already read are
 * taken from the table, so a second run reads only what the first did not finish.
 */
export async function backfillPriceHistory({
  projects,
  now = new Date(),
  archive = {},
  paths,
  random,
}: BackfillPriceHistoryParameters): Promise<BackfillOutcome[]> {
  if (projects.length === 0) return []
  const readers = new Map<NetworkName, BoundaryReader>()
  for (const network of NETWORK_NAMES) {
    if (!projects.some((project) => project.network === network)) continue
    const reader = createBoundaryReader({
      network,
      now,
      ...(archive[network] === undefined ? {} : { archive: archive[network] }),
    })
    readers.set(network, reader)
    if (!reader.hasArchive) {
      // The setting's name, never a URL: URLs carry provider keys.
      logger.warn('no archive RPC node: the price history fills forward only', {
        network,
        setting: `${network.toUpperCase()}_ARCHIVE_RPC_URL`,
        projects: projects.filter((project) => project.network === network).length,
      })
    }
  }
  const connectors = connectorsByNetwork(
    (await listProjectMarkets()).map(({ project, market }) => ({
      project,
      marketRank: market.marketRank,
    })),
  )
  const buckets = backfillBuckets(now)
  return mapConcurrently(projects, PROJECT_CONCURRENCY, async (project) => {
    const reader = readers.get(project.network)
    const outcome: BackfillOutcome = {
      projectId: project.id,
      written: 0,
      boundariesRead: 0,
      outOfReach: 0,
    }
    if (!reader) return outcome
    try {
      const filled = await fillPriceBuckets({
        projectId: project.id,
        buckets,
        now,
        reader,
        writes: { putClosed: putFinalPriceBuckets, putReadings: putBoundaryReadingsInBatches },
        resolvePath: pricingPathResolver({
          project,
          connectors: connectorsFor(connectors, project),
          policy: 'review',
          now,
          random,
          path: paths?.get(project.id),
        }),
      })
      return {
        ...outcome,
        pathId: filled.path?.id,
        written: filled.written,
        boundariesRead: filled.boundariesRead,
        outOfReach: filled.outOfReach,
        ...(filled.failure === undefined
          ? {}
          : { error: failureReason(translateChainError(filled.failure, project.network)) }),
      }
    } catch (error) {
      return { ...outcome, error: failureReason(translateChainError(error, project.network)) }
    }
  })
}
