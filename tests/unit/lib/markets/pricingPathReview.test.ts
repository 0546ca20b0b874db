import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  REVIEW_PERIOD_MS,
  reviewDue,
  reviewOffsetMs,
} from '../../../../lib/markets/pricingPathReview'

const SEED = 902_034
const SAMPLER_PERIOD_MS = 5 * 60_000
const DAY = REVIEW_PERIOD_MS

describe('when the sampler reviews a pricing path', () => {
  it('reviews once a day: due once within any day after a review, never twice in a day', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
        (projectId, start) => {
          // The sampler every 5 minutes for three days, reviewing whenever due.
          let reviewedAt = new Date(start)
          const reviews: number[] = []
          for (
            let now = start + SAMPLER_PERIOD_MS;
            now <= start + 3 * DAY;
            now += SAMPLER_PERIOD_MS
          ) {
            if (reviewDue(projectId, reviewedAt, new Date(now))) {
              reviews.push(now)
              reviewedAt = new Date(now)
            }
          }
          expect(reviews.length).toBeGreaterThanOrEqual(2)
          expect(reviews.length).toBeLessThanOrEqual(3)
          reviews.forEach((at, index) => {
            const previous = index === 0 ? start : (reviews[index - 1] ?? start)
            expect(at - previous).toBeLessThanOrEqual(DAY + SAMPLER_PERIOD_MS)
            if (index > 0) expect(at - previous).toBeGreaterThan(DAY - SAMPLER_PERIOD_MS)
          })
        },
      ),
      { numRuns: 200, seed: SEED },
    )
  })

  it('reviews a path never reviewed at once, and one reviewed this instant not again', () => {
    const now = new Date('2026-11-21T20:00:00Z')
    expect(reviewDue('p', undefined, now)).toBe(true)
    expect(reviewDue('p', now, now)).toBe(false)
    expect(reviewDue('p', new Date(now.getTime() - DAY - 1), now)).toBe(true)
  })

  it('spreads a catalog imported at once over the day’s sampler runs', () => {
    const runs = new Map<number, number>()
    for (let index = 0; index < 2_000; index += 1) {
      const run = Math.floor(reviewOffsetMs(randomUUID()) / SAMPLER_PERIOD_MS)
      runs.set(run, (runs.get(run) ?? 0) + 1)
    }
    // 288 runs a day: about 7 of 2,000 projects each; none takes a large share.
    expect(Math.max(...runs.values())).toBeLessThan(30)
    expect(runs.size).toBeGreaterThan(250)
  })
})
