import { queryPriceWindow } from '../db/priceBucket'
import type { PriceGrain } from '../db/priceGrains'
import { NotFound } from '../errors'
import { windowStart } from './priceGrains'

export interface PricePoint {
  /** The bucket's start. */
  start: Date
  /**
   * The time-weighted average price over the bucket (up to now for the current one), USD per
   * whole token with 18 decimals.
   */
  averageE18: bigint
}

/**
 * The window of `grain` that ends with the bucket holding `now` (24 hours, 30 days or 12 months),
 * oldest first, buckets never filled left out: one DynamoDB Query, which also tells an
 * unknown project (404) from one without history yet.
 */
export async function readPriceHistory(
  projectId: string,
  grain: PriceGrain,
  now = new Date(),
): Promise<PricePoint[]> {
  const { known, buckets } = await queryPriceWindow(projectId, grain, windowStart(grain, now))
  if (!known) throw new NotFound('no project with this id')
  return buckets.map((bucket) => ({ start: bucket.start, averageE18: bucket.averageE18 }))
}
