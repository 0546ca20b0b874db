import { createHash } from 'node:crypto'

/** A kept pricing path is compared with every candidate at least this often (DECISIONS §9.2). */
export const REVIEW_PERIOD_MS = 86_400_000

/**
 * Where in the day a project's review falls: a fixed offset from its id, so a catalog imported in
 * one go is reviewed over the day's sampler runs (a few projects a run), not all in one.
 */
export function reviewOffsetMs(projectId: string): number {
  return createHash('sha256').update(projectId).digest().readUInt32BE(0) % REVIEW_PERIOD_MS
}

/**
 * Whether the sampler reviews a project's path at `now`: never reviewed, or not since its daily
 * moment last passed. A review that fails leaves `reviewedAt` alone, so the next run tries again.
 */
export function reviewDue(projectId: string, reviewedAt: Date | undefined, now: Date): boolean {
  if (!reviewedAt) return true
  const offset = reviewOffsetMs(projectId)
  const lastSlot =
    Math.floor((now.getTime() - offset) / REVIEW_PERIOD_MS) * REVIEW_PERIOD_MS + offset
  return reviewedAt.getTime() < lastSlot
}
