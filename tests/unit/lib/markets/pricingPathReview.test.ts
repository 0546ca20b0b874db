import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PricingPath } from '../../../../lib/db/priceBoundary'
import {
  depthDropped,
  nextReviewAt,
  REVIEW_PERIOD_MS,
  reviewDue,
  secureRandom,
} from '../../../../lib/markets/pricingPathReview'

const SEED = 902_034
const SAMPLER_PERIOD_MS = 5 * 60_000
const DAY = REVIEW_PERIOD_MS
const TOKEN = '0x00000000000000000000000000000000000000aa'
const USD = '0x00000000000000000000000000000000000000bb'

/** A seeded uniform draw in [0, 1): fast-check's own generator, not the service's. */
const draws = fc.infiniteStream(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }))

describe('when the sampler reviews a pricing path', () => {
  it('draws the next review within a day of the last, never at it: at least daily, as §9.2 asks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (at, draw) => {
          const next = nextReviewAt(new Date(at), () => draw).getTime()
          expect(next).toBeGreaterThan(at)
          expect(next).toBeLessThanOrEqual(at + DAY)
        },
      ),
      { numRuns: 2_000, seed: SEED },
    )
  })

  it('reviews at the first run at or after the drawn moment, so at most a day and a run apart', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
        draws,
        (start, stream) => {
          // The sampler every 5 minutes for three days, reviewing whenever due.
          const random = () => stream.next().value as number
          let path = {
            reviewedAt: new Date(start),
            nextReviewAt: nextReviewAt(new Date(start), random),
          }
          const reviews = [start]
          for (
            let now = start + SAMPLER_PERIOD_MS;
            now <= start + 3 * DAY;
            now += SAMPLER_PERIOD_MS
          ) {
            if (!reviewDue(path, new Date(now))) continue
            expect(now).toBeGreaterThanOrEqual(path.nextReviewAt.getTime())
            expect(now - path.nextReviewAt.getTime()).toBeLessThan(SAMPLER_PERIOD_MS)
            reviews.push(now)
            path = { reviewedAt: new Date(now), nextReviewAt: nextReviewAt(new Date(now), random) }
          }
          reviews.slice(1).forEach((at, index) => {
            expect(at - (reviews[index] ?? start)).toBeLessThanOrEqual(DAY + SAMPLER_PERIOD_MS)
          })
          expect(reviews.length).toBeGreaterThanOrEqual(3)
        },
      ),
      { numRuns: 60, seed: SEED },
    )
  })

  it('cannot be computed from anything public: the CSPRNG spreads one project’s reviews over the whole day', () => {
    // The old moment was a hash of the project id: the same offset into every day. Now 2,000
    // draws for one and the same path land in nearly every one of the day's 288 sampler runs.
    const reviewedAt = new Date('2026-11-21T00:00:00Z')
    const runs = new Map<number, number>()
    for (let index = 0; index < 2_000; index += 1) {
      const delay = nextReviewAt(reviewedAt, secureRandom).getTime() - reviewedAt.getTime()
      const run = Math.floor((delay - 1) / SAMPLER_PERIOD_MS)
      runs.set(run, (runs.get(run) ?? 0) + 1)
    }
    expect(Math.max(...runs.keys())).toBeLessThan(288)
    expect(runs.size).toBeGreaterThan(250)
    expect(Math.max(...runs.values())).toBeLessThan(30)
  })

  it('reviews a path never reviewed, or stored without a drawn moment, at once; one not yet due not', () => {
    const now = new Date('2026-11-21T20:00:00Z')
    const later = new Date(now.getTime() + 1)
    expect(reviewDue({}, now)).toBe(true)
    expect(reviewDue({ reviewedAt: now }, now)).toBe(true)
    expect(reviewDue({ reviewedAt: now, nextReviewAt: later }, now)).toBe(false)
    expect(reviewDue({ reviewedAt: now, nextReviewAt: later }, later)).toBe(true)
  })

  it('reviews at once when a hop’s deepest pool holds less than half of its deepest at the review', () => {
    const hop = (depths: string[]): PricingPath['hops'][number] => {
      const [first, ...more] = depths.map((depth, index) => ({
        protocol: 'v3' as const,
        pool: `0x${(index + 1).toString(16).padStart(40, '0')}` as const,
        zeroForOne: true,
        depth,
      }))
      if (!first) throw new Error('no pool')
      return { ...first, tokenIn: TOKEN, tokenOut: USD, more }
    }
    const path: PricingPath = {
      id: 'p',
      hops: [hop(['1000', '3000'])],
      tokenDecimals: 18,
      usdDecimals: 6,
    }
    const sample = (a: bigint, b: bigint) =>
      new Map([
        ['0x0000000000000000000000000000000000000001', a],
        ['0x0000000000000000000000000000000000000002', b],
      ])
    expect(depthDropped(path, sample(1_000n, 3_000n))).toBe(false)
    // The deep pool emptied, the other as before: 1,000 of 3,000 is less than half.
    expect(depthDropped(path, sample(1_000n, 0n))).toBe(true)
    expect(depthDropped(path, sample(1_500n, 0n))).toBe(false)
    expect(depthDropped(path, sample(1_499n, 0n))).toBe(true)
    // A pool the sample did not see counts 0; a path of an older version (no depths) never drops.
    expect(depthDropped(path, new Map())).toBe(true)
    const old = { ...path, hops: path.hops.map(({ depth: _, more: __, ...rest }) => rest) }
    expect(depthDropped(old, new Map())).toBe(false)
  })
})
