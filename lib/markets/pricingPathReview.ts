import { randomInt } from 'node:crypto'
import { hopPools, type PricingPath } from '../db/priceBoundary'

/** A kept pricing path is compared with every candidate at least this often (DECISIONS §9.2). */
export const REVIEW_PERIOD_MS = 86_400_000

/** A uniform draw in [0, 1). */
export type Random = () => number

// randomInt spans less than 2^48.
const RANDOM_SPAN = 2 ** 47

/** From the operating system's CSPRNG: the schedule is a secret nobody outside can compute. */
export const secureRandom: Random = () => randomInt(0, RANDOM_SPAN) / RANDOM_SPAN

/**
 * When the sampler reviews a path next (DECISIONS §10.4): a moment drawn uniformly in
 * (reviewedAt, reviewedAt + REVIEW_PERIOD_MS], kept in the table beside the path and never shown.
 * Nobody can compute it (unlike a hash of the public project id), and whatever one knows of the
 * last review, the next may come at any sampler run of the next day: capital that is to count at
 * a review has to be held for the day.
 */
export function nextReviewAt(reviewedAt: Date, random: Random = secureRandom): Date {
  const delay = Math.max(1, Math.ceil(random() * REVIEW_PERIOD_MS))
  return new Date(reviewedAt.getTime() + Math.min(delay, REVIEW_PERIOD_MS))
}

/**
 * Whether the sampler reviews a path at `now`: never reviewed, reviewed before its next moment
 * was drawn (a path stored by an older version), or that moment has come. A review that fails
 * leaves both alone, so the next run tries again.
 */
export function reviewDue(
  path: Pick<PricingPath, 'reviewedAt' | 'nextReviewAt'>,
  now: Date,
): boolean {
  if (!path.reviewedAt || !path.nextReviewAt) return true
  return now.getTime() >= path.nextReviewAt.getTime()
}

/**
 * Whether a sample finds a hop of the path less than half as deep as at its review (its deepest
 * pool then against its deepest now): the path is reviewed at once rather than at its moment, so
 * a pool that was deep for the review and then emptied (the only pool of its hop, where weights
 * cannot help) leads the path for one sampler run at most. Pools without a recorded depth (paths
 * of an older version) never trigger it.
 */
export function depthDropped(path: PricingPath, depths: ReadonlyMap<string, bigint>): boolean {
  return path.hops.some((hop) => {
    let reviewed = 0n
    let now = 0n
    for (const pool of hopPools(hop)) {
      if (pool.depth === undefined) return false
      const depth = BigInt(pool.depth)
      if (depth > reviewed) reviewed = depth
      const sampled = depths.get(pool.pool.toLowerCase()) ?? 0n
      if (sampled > now) now = sampled
    }
    return now * 2n < reviewed
  })
}
