import { describe, expect, it } from 'vitest'
import { historySchedule, priceFactors } from '../../../../lib/local/historyPrices'

const DAY = 86_400
const now = Date.parse('2026-11-27T09:41:13Z') / 1000
const genesis = now - 370 * DAY

describe("the devnet's year of demo trades", () => {
  const times = historySchedule(genesis, now)

  it('is a bounded number of blocks, in time order, ending now', () => {
    expect(times.length).toBeGreaterThan(200)
    expect(times.length).toBeLessThan(300)
    expect(times.every((at, index) => index === 0 || at > (times[index - 1] ?? 0))).toBe(true)
    expect(times[0]).toBeGreaterThan(genesis)
    expect(times.at(-1)).toBe(now)
  })

  it('moves prices within every bucket of the 24-hour, 30-day and 12-month windows', () => {
    const hasMove = (from: number, to: number) => times.some((at) => at >= from && at < to)
    const hourStart = Math.floor(now / 3600) * 3600
    for (let hour = 0; hour < 24; hour += 1) {
      expect(hasMove(hourStart - hour * 3600, hourStart - hour * 3600 + 3600)).toBe(true)
    }
    const dayStart = Math.floor(now / DAY) * DAY
    for (let day = 0; day < 30; day += 1) {
      expect(hasMove(dayStart - day * DAY, dayStart - day * DAY + DAY)).toBe(true)
    }
    for (let month = 0; month < 12; month += 1) {
      const at = new Date(now * 1000)
      const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - month, 1) / 1000
      const end = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - month + 1, 1) / 1000
      expect(hasMove(start, end)).toBe(true)
    }
  })

  it('starts and ends each price at its catalog price, with bounded moves between', () => {
    const factors = priceFactors('ethereum:LINK', times, 0.035)

    expect(factors[0]).toBe(1)
    expect(factors.at(-1)).toBe(1)
    expect(Math.min(...factors)).toBeGreaterThanOrEqual(Math.exp(-0.45))
    expect(Math.max(...factors)).toBeLessThanOrEqual(Math.exp(0.45))
    // Real moves: the year's range is wide, and the same name gives the same path.
    expect(Math.max(...factors) / Math.min(...factors)).toBeGreaterThan(1.1)
    expect(priceFactors('ethereum:LINK', times, 0.035)).toEqual(factors)
    expect(priceFactors('ethereum:USDC', times, 0).every((factor) => factor === 1)).toBe(true)
  })
})
