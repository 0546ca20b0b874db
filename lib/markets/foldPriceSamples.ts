import { addToPriceBuckets } from '../db/priceBucket'
import { aggregateSamples, type PriceSample } from './priceGrains'

export interface FoldPriceSamplesParameters {
  /** The fold's present: buckets already expired by then are not written. */
  now?: Date
}

/**
 * Folds samples into the project's hourly, daily and monthly buckets. Samples are summed per
 * bucket in memory first, so a backfill of a year writes each live bucket once; each write is an
 * atomic ADD of sum and count, so folds running side by side never lose a sample.
 */
export async function foldPriceSamples(
  projectId: string,
  samples: readonly PriceSample[],
  { now = new Date() }: FoldPriceSamplesParameters = {},
): Promise<{ buckets: number }> {
  const deltas = aggregateSamples(samples, now)
  await addToPriceBuckets(projectId, deltas)
  return { buckets: deltas.length }
}
