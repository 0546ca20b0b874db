import type { PriceChangePeriod, PriceGrain } from '../db/priceGrains'

// The calendar of the price history, free of I/O: where buckets start, how long they live, which
// buckets a window, a fill or a price change needs. Prices are USD per whole token as bigint
// fixed-point numbers with 18 decimals ("e18").

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

interface GrainRule {
  /** Buckets in the history window, the current one included. */
  window: number
  /** How long a bucket lives after its start (the table's TTL). */
  lifetime: (start: Date) => Date
}

// Hourly buckets live 25 h so the bucket of 24 h ago is there for the 24 h change; daily ones
// 92 days so the 60 and 90 day changes read a day, not a month; monthly ones 13 months.
const RULES: Record<PriceGrain, GrainRule> = {
  hour: { window: 24, lifetime: (start) => new Date(start.getTime() + 25 * HOUR_MS) },
  day: { window: 30, lifetime: (start) => new Date(start.getTime() + 92 * DAY_MS) },
  month: { window: 12, lifetime: (start) => addBuckets('month', start, 13) },
}

/** The start (UTC) of the bucket of `grain` that holds `at`. */
export function bucketStart(grain: PriceGrain, at: Date): Date {
  const year = at.getUTCFullYear()
  const month = at.getUTCMonth()
  if (grain === 'month') return new Date(Date.UTC(year, month, 1))
  if (grain === 'day') return new Date(Date.UTC(year, month, at.getUTCDate()))
  return new Date(Date.UTC(year, month, at.getUTCDate(), at.getUTCHours()))
}

/** `start` moved by `count` buckets (negative goes back); months move by calendar month. */
export function addBuckets(grain: PriceGrain, start: Date, count: number): Date {
  if (grain === 'hour') return new Date(start.getTime() + count * HOUR_MS)
  if (grain === 'day') return new Date(start.getTime() + count * DAY_MS)
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + count, 1))
}

/** The oldest bucket start of the history window that ends with the bucket holding `now`. */
export function windowStart(grain: PriceGrain, now: Date): Date {
  return addBuckets(grain, bucketStart(grain, now), -(RULES[grain].window - 1))
}

export function bucketExpiry(grain: PriceGrain, start: Date): Date {
  return RULES[grain].lifetime(start)
}

/**
 * How long the accumulators read at a boundary (an hour start) are kept: until the buckets it
 * starts have closed and the sampler's look-back (FORWARD_BUCKETS) has passed them.
 */
export function boundaryExpiry(at: Date): Date {
  if (bucketStart('month', at).getTime() === at.getTime())
    return new Date(at.getTime() + 100 * DAY_MS)
  if (bucketStart('day', at).getTime() === at.getTime()) return new Date(at.getTime() + 4 * DAY_MS)
  return new Date(at.getTime() + 4 * HOUR_MS)
}

export interface BucketRef {
  grain: PriceGrain
  start: Date
}

/** Buckets of each grain the sampler fills each run: the current one and the two before. */
export const FORWARD_BUCKETS = 3

/** What a sampler run fills: the open bucket of each grain and the ones just closed. */
export function forwardBuckets(now: Date): BucketRef[] {
  return (['hour', 'day', 'month'] as const).flatMap((grain) =>
    Array.from({ length: FORWARD_BUCKETS }, (_, back) => ({
      grain,
      start: addBuckets(grain, bucketStart(grain, now), -back),
    })),
  )
}

/**
 * What a backfill fills: the three history windows (24 hours, 30 days, 12 months, the current
 * bucket of each included) and the buckets the price changes compare against.
 */
export function backfillBuckets(now: Date): BucketRef[] {
  const buckets = new Map<string, BucketRef>()
  const add = (bucket: BucketRef) =>
    buckets.set(`${bucket.grain}#${bucket.start.getTime()}`, bucket)
  for (const grain of ['hour', 'day', 'month'] as const) {
    for (let index = 0; index < RULES[grain].window; index += 1) {
      add({ grain, start: addBuckets(grain, windowStart(grain, now), index) })
    }
  }
  for (const reference of Object.values(referenceBuckets(now))) add(reference)
  return [...buckets.values()]
}

/** The buckets whose averages the price changes compare against, keyed by change. */
export function referenceBuckets(now: Date): Record<PriceChangePeriod, BucketRef> {
  const daysAgo = (days: number) => ({
    grain: 'day' as const,
    start: bucketStart('day', new Date(now.getTime() - days * DAY_MS)),
  })
  return {
    '24h': { grain: 'hour', start: bucketStart('hour', new Date(now.getTime() - DAY_MS)) },
    '7d': daysAgo(7),
    '30d': daysAgo(30),
    '60d': daysAgo(60),
    '90d': daysAgo(90),
  }
}

const PERCENT_DECIMALS = 6n

/** The change from `reference` to `price` in percent (6 decimals); 0 when there is no reference. */
export function percentChange(priceE18: bigint, referenceE18: bigint | undefined): number {
  if (referenceE18 === undefined || referenceE18 === 0n) return 0
  const scaled = ((priceE18 - referenceE18) * 100n * 10n ** PERCENT_DECIMALS) / referenceE18
  return Number(scaled) / 10 ** Number(PERCENT_DECIMALS)
}
