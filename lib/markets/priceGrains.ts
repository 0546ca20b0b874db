import { PRICE_GRAINS, type PriceChangePeriod, type PriceGrain } from '../db/priceGrains'
import type { BucketDelta } from '../db/priceBucket'

// Bucket arithmetic of the price history, free of I/O. Prices are USD per whole token as bigint
// fixed-point numbers with 18 decimals ("e18"); a bucket keeps their exact sum and the sample count.

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

/** A sample: USD per whole token (18 decimals) at a moment. */
export interface PriceSample {
  at: Date
  priceE18: bigint
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
 * Sums samples per bucket of every grain, so a fold writes each bucket once however many samples
 * it holds. Buckets whose lifetime has already ended at `now` are left out: the table's TTL would
 * delete them, and no window reads them.
 */
export function aggregateSamples(samples: readonly PriceSample[], now: Date): BucketDelta[] {
  const buckets = new Map<string, BucketDelta>()
  // Samples come in time order, so consecutive ones mostly share their buckets: remember the
  // last bucket of each grain instead of computing dates and map keys for every sample.
  const last: Partial<Record<PriceGrain, { from: number; to: number; delta?: BucketDelta }>> = {}
  for (const sample of samples) {
    const time = sample.at.getTime()
    for (const grain of PRICE_GRAINS) {
      let current = last[grain]
      if (!current || time < current.from || time >= current.to) {
        const start = bucketStart(grain, sample.at)
        const key = `${grain}#${start.getTime()}`
        let delta = buckets.get(key)
        if (!delta) {
          const expiresAt = bucketExpiry(grain, start)
          if (expiresAt.getTime() > now.getTime()) {
            delta = { grain, start, sumE18: 0n, count: 0, expiresAt }
            buckets.set(key, delta)
          }
        }
        current = { from: start.getTime(), to: addBuckets(grain, start, 1).getTime(), delta }
        last[grain] = current
      }
      if (current.delta) {
        current.delta.sumE18 += sample.priceE18
        current.delta.count += 1
      }
    }
  }
  return [...buckets.values()]
}

/** The buckets whose averages the price changes compare against, keyed by change. */
export function referenceBuckets(
  now: Date,
): Record<PriceChangePeriod, { grain: PriceGrain; start: Date }> {
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
