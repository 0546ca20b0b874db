import type { Address } from 'viem'
import { type PricingPath, putPricingPath } from '../db/priceBoundary'
import type { Project } from '../db/project'
import { choosePricingPath, reviewedDepths, samplePathDepths } from './pricingPath'
import { depthDropped, nextReviewAt, type Random, reviewDue } from './pricingPathReview'

export interface PricingPathResolverParameters {
  project: Pick<Project, 'id' | 'network' | 'address' | 'decimals'>
  connectors: readonly Address[]
  /**
   * 'scheduled' (the sampler): the stored path, sampled, and reviewed when its drawn moment has
   * come or the sample finds a hop less than half as deep as at its review; chosen when there is
   * none. 'review' (a backfill): reviewed now. A review chooses again, keeping the stored path
   * unless it is less than half as deep as the best (choosePricingPath).
   */
  policy: 'scheduled' | 'review'
  /** The run's present: when a review is due, and what it records. */
  now: Date
  /** Draws the next review's moment (the CSPRNG unless a test injects its own). */
  random?: Random
  /** This path, whatever is stored (a backfill told which pools to read). */
  path?: PricingPath
}

/** The pools a fill reads, and their depths now (the run's sample) where it took one. */
export interface ResolvedPath {
  path: PricingPath
  depths?: ReadonlyMap<string, bigint>
}

/**
 * The `resolvePath` of a fill: which pools a project's price is read from, and the sample of their
 * depths the run's open buckets fold in (DECISIONS §10.4). A run that reviews samples with the
 * review's own reading; another reads the path's pools (one lens round trip). A review stores its
 * outcome with its time and the next review's moment (one UpdateItem), whether the path changed
 * or not.
 */
export function pricingPathResolver({
  project,
  connectors,
  policy,
  now,
  random,
  path,
}: PricingPathResolverParameters): (
  stored: PricingPath | undefined,
) => Promise<ResolvedPath | undefined> {
  return async (stored) => {
    if (path) {
      if (path.id !== stored?.id) await putPricingPath(project.id, path)
      return { path }
    }
    let sampled: ReadonlyMap<string, bigint> | undefined
    if (stored && policy === 'scheduled' && !reviewDue(stored, now)) {
      sampled = await samplePathDepths({ network: project.network, path: stored })
      if (!depthDropped(stored, sampled)) return { path: stored, depths: sampled }
    }
    let chosen: PricingPath | undefined
    try {
      chosen = await choosePricingPath({
        network: project.network,
        token: project.address,
        decimals: project.decimals,
        connectors,
        current: stored,
      })
    } catch (error) {
      // The sampler's review waits for a node that failed (the next run asks again); its history
      // goes on with the stored pools meanwhile.
      if (policy === 'scheduled' && stored) return { path: stored, depths: sampled }
      throw error
    }
    if (!chosen) return undefined
    const reviewed = { ...chosen, reviewedAt: now, nextReviewAt: nextReviewAt(now, random) }
    await putPricingPath(project.id, reviewed)
    return { path: reviewed, depths: reviewedDepths(reviewed) }
  }
}
