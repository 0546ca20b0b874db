import { describe, expect, it } from 'vitest'
import { bucketLabel } from '../../../../lib/db/priceGrains'
import {
  backfillBuckets,
  boundaryExpiry,
  bucketExpiry,
  forwardBuckets,
  bucketStart,
  percentChange,
  referenceBuckets,
  windowStart,
} from '../../../../lib/markets/priceGrains'

const at = new Date('2026-03-31T17:42:05.123Z')
const usd = (value: number) => BigInt(Math.round(value * 1e6)) * 10n ** 12n

describe('price buckets', () => {
  it('starts hour, day and month buckets at their UTC boundary', () => {
    expect(bucketStart('hour', at).toISOString()).toBe('2026-03-31T17:00:00.000Z')
    expect(bucketStart('day', at).toISOString()).toBe('2026-03-31T00:00:00.000Z')
    expect(bucketStart('month', at).toISOString()).toBe('2026-03-01T00:00:00.000Z')
  })

  it('labels buckets so that labels sort as their starts do', () => {
    expect(bucketLabel('hour', bucketStart('hour', at))).toBe('2026-03-31T17')
    expect(bucketLabel('day', bucketStart('day', at))).toBe('2026-03-31')
    expect(bucketLabel('month', bucketStart('month', at))).toBe('2026-03')
  })

  it('opens windows of 24 hours, 30 days and 12 months that end with the current bucket', () => {
    expect(windowStart('hour', at).toISOString()).toBe('2026-03-30T18:00:00.000Z')
    expect(windowStart('day', at).toISOString()).toBe('2026-03-02T00:00:00.000Z')
    expect(windowStart('month', at).toISOString()).toBe('2025-04-01T00:00:00.000Z')
  })

  it('lets a bucket live a little past its window', () => {
    const hour = bucketStart('hour', at)
    expect(bucketExpiry('hour', hour).getTime() - hour.getTime()).toBe(25 * 3_600_000)
    expect(bucketExpiry('day', bucketStart('day', at)).toISOString()).toBe(
      '2026-07-01T00:00:00.000Z',
    )
    expect(bucketExpiry('month', bucketStart('month', at)).toISOString()).toBe(
      '2027-04-01T00:00:00.000Z',
    )
  })

  it('keeps a boundary reading until the buckets it starts have closed', () => {
    const hour = new Date('2026-03-31T17:00:00Z')
    const day = new Date('2026-03-31T00:00:00Z')
    const month = new Date('2026-03-01T00:00:00Z')

    expect(boundaryExpiry(hour).toISOString()).toBe('2026-03-31T21:00:00.000Z')
    expect(boundaryExpiry(day).toISOString()).toBe('2026-04-04T00:00:00.000Z')
    expect(boundaryExpiry(month).toISOString()).toBe('2026-06-09T00:00:00.000Z')
  })

  it('has the sampler fill the open bucket of each grain and the two before it', () => {
    const labels = forwardBuckets(at).map(
      ({ grain, start }) => `${grain} ${bucketLabel(grain, start)}`,
    )

    expect(labels).toEqual([
      'hour 2026-03-31T17',
      'hour 2026-03-31T16',
      'hour 2026-03-31T15',
      'day 2026-03-31',
      'day 2026-03-30',
      'day 2026-03-29',
      'month 2026-03',
      'month 2026-02',
      'month 2026-01',
    ])
  })

  it('has a backfill fill the three windows and the change references: 70 buckets', () => {
    const buckets = backfillBuckets(at)
    const of = (grain: string) => buckets.filter((bucket) => bucket.grain === grain)

    // 24 hours and the hour 24 h back; 30 days and the days 30, 60 and 90 back; 12 months.
    expect([of('hour').length, of('day').length, of('month').length]).toEqual([25, 33, 12])
    expect(
      of('hour')
        .map((bucket) => bucket.start.toISOString())
        .sort()[0],
    ).toBe('2026-03-30T17:00:00.000Z')
    expect(
      of('month')
        .map((bucket) => bucketLabel('month', bucket.start))
        .sort()[0],
    ).toBe('2025-04')
  })

  it('compares the price with the buckets 24 h and 7 to 90 days back', () => {
    const references = referenceBuckets(at)

    expect(references['24h']).toEqual({ grain: 'hour', start: new Date('2026-03-30T17:00:00Z') })
    expect(references['7d']).toEqual({ grain: 'day', start: new Date('2026-03-24T00:00:00Z') })
    expect(references['90d']).toEqual({ grain: 'day', start: new Date('2025-12-31T00:00:00Z') })
  })

  it('gives the change in percent, and 0 without a reference', () => {
    expect(percentChange(usd(1.5), usd(2))).toBe(-25)
    expect(percentChange(usd(3), usd(2))).toBe(50)
    expect(percentChange(usd(1), undefined)).toBe(0)
  })
})
