import { describe, expect, it } from 'vitest'
import { bucketLabel } from '../../../../lib/db/priceGrains'
import {
  aggregateSamples,
  bucketExpiry,
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

  it('sums samples per bucket exactly and skips buckets already expired', () => {
    const samples = [
      { at: new Date('2026-03-31T17:05:00Z'), priceE18: usd(1.1) },
      { at: new Date('2026-03-31T17:55:00Z'), priceE18: usd(2.2) },
      { at: new Date('2026-03-31T18:05:00Z'), priceE18: usd(3.3) },
      { at: new Date('2026-03-28T10:00:00Z'), priceE18: usd(4.4) },
    ]

    const deltas = aggregateSamples(samples, new Date('2026-03-31T18:10:00Z'))
    const byKey = Object.fromEntries(
      deltas.map((delta) => [`${delta.grain} ${bucketLabel(delta.grain, delta.start)}`, delta]),
    )

    expect(Object.keys(byKey).sort()).toEqual([
      'day 2026-03-28',
      'day 2026-03-31',
      'hour 2026-03-31T17',
      'hour 2026-03-31T18',
      'month 2026-03',
    ])
    expect(byKey['hour 2026-03-31T17']).toMatchObject({ sumE18: usd(3.3), count: 2 })
    expect(byKey['day 2026-03-31']).toMatchObject({ sumE18: usd(6.6), count: 3 })
    expect(byKey['month 2026-03']).toMatchObject({ sumE18: usd(11), count: 4 })
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
