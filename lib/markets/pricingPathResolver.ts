import type { Address } from 'viem'
import { type PricingPath, putPricingPath } from '../db/priceBoundary'
import type { Project } from '../db/project'
import { choosePricingPath } from './pricingPath'
import { reviewDue } from './pricingPathReview'

export interface PricingPathResolverParameters {
  project: Pick<Project, 'id' | 'network' | 'address' | 'decimals'>
  connectors: readonly Address[]
  /**
   * 'daily' (the sampler): the stored path, reviewed once its daily moment has passed
   * (reviewDue), chosen when there is none. 'review' (a backfill): reviewed now. A review chooses
   * again, keeping the stored path unless it is less than half as deep as the best
   * (choosePricingPath).
   */
  policy: 'daily' | 'review'
  /** The run's present: when a review is due, and what it records. */
  now: Date
  /** This path, whatever is stored (a backfill told which pools to read). */
  path?: PricingPath
}

/**
 * The `resolvePath` of a fill: which pools a project's price is read from. A review stores its
 * outcome with its time (one UpdateItem), whether the path changed or not.
 */
export function pricingPathResolver({
  project,
  connectors,
  policy,
  now,
  path,
}: PricingPathResolverParameters): (
  stored: PricingPath | undefined,
) => Promise<PricingPath | undefined> {
  return async (stored) => {
    if (path) {
      if (path.id !== stored?.id) await putPricingPath(project.id, path)
      return path
    }
    if (stored && policy === 'daily' && !reviewDue(project.id, stored.reviewedAt, now)) {
      return stored
    }
    const review = () =>
      choosePricingPath({
        network: project.network,
        token: project.address,
        decimals: project.decimals,
        connectors,
        current: stored,
      })
    let chosen: PricingPath | undefined
    try {
      chosen = await review()
    } catch (error) {
      // The sampler's review waits for a node that failed (the next run asks again); its history
      // goes on with the stored pools meanwhile.
      if (policy === 'daily' && stored) return stored
      throw error
    }
    if (chosen) await putPricingPath(project.id, { ...chosen, reviewedAt: now })
    return chosen
  }
}
