import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Fraction } from '../../../../lib/routing/pools/midPrice'
import { weightedMedian } from '../../../../lib/markets/weightedMedian'

// The reference: each value written out as many times as its weight, sorted, and the textbook
// median taken: the middle one of an odd count, the mean of the two middles of an even count.

const SEED = 902_033

const fraction = fc.record({
  num: fc.bigInt({ min: 0n, max: 1n << 80n }),
  den: fc.bigInt({ min: 1n, max: 1n << 80n }),
})
// Few distinct values, so ties and equal fractions written differently (1/2 and 2/4) come up.
const value = fc.oneof(
  fraction,
  fc
    .record({ num: fc.bigInt({ min: 0n, max: 4n }), scale: fc.bigInt({ min: 1n, max: 3n }) })
    .map(({ num, scale }) => ({ num: num * scale, den: 2n * scale })),
)
const items = fc.array(fc.record({ value, weight: fc.bigInt({ min: 0n, max: 25n }) }), {
  minLength: 1,
  maxLength: 9,
})
const weighed = items.filter((list) => list.some(({ weight }) => weight > 0n))

const sameValue = (a: Fraction, b: Fraction) => a.num * b.den === b.num * a.den
const compare = (a: Fraction, b: Fraction) => {
  const difference = a.num * b.den - b.num * a.den
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}
const atMost = (a: Fraction, b: Fraction) => compare(a, b) <= 0

function expandedMedian(list: ReadonlyArray<{ value: Fraction; weight: bigint }>): Fraction {
  const expanded = list
    .flatMap(({ value, weight }) => Array.from({ length: Number(weight) }, () => value))
    .sort(compare)
  const count = expanded.length
  const lower = expanded[Math.ceil(count / 2) - 1]
  const upper = expanded[Math.floor(count / 2)]
  if (!lower || !upper) throw new Error('empty')
  return { num: lower.num * upper.den + upper.num * lower.den, den: 2n * lower.den * upper.den }
}

/** An honest side and an attacker's, each of one or more weighted values. */
const sides = fc.record({
  honest: fc.array(fc.record({ value, weight: fc.bigInt({ min: 1n, max: 1_000n }) }), {
    minLength: 1,
    maxLength: 5,
  }),
  attacker: fc.array(fc.record({ value: fraction, weight: fc.bigInt({ min: 1n, max: 1_000n }) }), {
    minLength: 1,
    maxLength: 4,
  }),
})
const total = (list: ReadonlyArray<{ weight: bigint }>) =>
  list.reduce((sum, { weight }) => sum + weight, 0n)
const rangeOf = (list: ReadonlyArray<{ value: Fraction }>) => {
  const sorted = list.map(({ value }) => value).sort(compare)
  return { low: sorted[0] as Fraction, high: sorted[sorted.length - 1] as Fraction }
}

describe('the weighted median', () => {
  it('is the median of the values each written out as many times as its weight, exactly', () => {
    fc.assert(
      fc.property(weighed, (list) => {
        const median = weightedMedian(list)
        expect(sameValue(median, expandedMedian(list))).toBe(true)
      }),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('is one of the values, unchanged, unless the weight splits at exactly half', () => {
    fc.assert(
      fc.property(weighed, (list) => {
        const median = weightedMedian(list)
        const all = total(list)
        const below = total(list.filter((item) => compare(item.value, median) < 0))
        const above = total(list.filter((item) => compare(item.value, median) > 0))
        // Neither side of the median holds more than half of the weight.
        expect(below * 2n).toBeLessThanOrEqual(all)
        expect(above * 2n).toBeLessThanOrEqual(all)
        if (below * 2n !== all) {
          expect(list.some((item) => item.weight > 0n && item.value === median)).toBe(true)
        }
      }),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('never leaves the range of pools holding more than half of the weight, whatever the others say', () => {
    fc.assert(
      fc.property(sides, ({ honest, attacker }) => {
        // The attacker holds less than half: scale its weights below the honest total.
        const honestWeight = total(honest)
        const scaled = attacker.map((item) => ({
          ...item,
          weight: (item.weight * (honestWeight - 1n)) / total(attacker),
        }))
        fc.pre(total(scaled) < honestWeight)
        const median = weightedMedian([...honest, ...scaled])
        const { low, high } = rangeOf(honest)
        expect(atMost(low, median) && atMost(median, high)).toBe(true)
      }),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('is not carried by exactly half of the weight: then it is the midpoint, never the other half’s own', () => {
    fc.assert(
      fc.property(sides, ({ honest, attacker }) => {
        // Exactly half each: the attacker's weights scaled to the honest total.
        const honestWeight = total(honest)
        const scaled = attacker.map((item) => ({ ...item, weight: item.weight * honestWeight }))
        const both = [
          ...honest.map((item) => ({ ...item, weight: item.weight * total(attacker) })),
          ...scaled,
        ]
        const median = weightedMedian(both)
        const { low, high } = rangeOf(honest)
        const inside = atMost(low, median) && atMost(median, high)
        // Outside the honest range only as far as halfway to the attacker's nearest value.
        const attackers = rangeOf(attacker)
        const halfway = (a: Fraction, b: Fraction) => ({
          num: a.num * b.den + b.num * a.den,
          den: 2n * a.den * b.den,
        })
        const bound =
          compare(median, low) < 0 ? halfway(low, attackers.high) : halfway(high, attackers.low)
        expect(inside || sameValue(median, bound)).toBe(true)
        if (!inside) {
          // The attacker's side sits wholly beyond the honest range, and the median between.
          expect(attacker.every(({ value }) => !(atMost(low, value) && atMost(value, high)))).toBe(
            true,
          )
        }
      }),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('does not depend on the order of the pools', () => {
    fc.assert(
      fc.property(
        weighed.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length })),
        ),
        ([list, shuffled]) => {
          expect(sameValue(weightedMedian(list), weightedMedian(shuffled))).toBe(true)
        },
      ),
      { numRuns: 1_000, seed: SEED },
    )
  })

  it('is a single pool’s own price, follows more than half of the weight, and splits an exact half', () => {
    const price = { num: 31n, den: 100n }
    expect(weightedMedian([{ value: price, weight: 7n }])).toBe(price)
    const attacker = { num: 3n, den: 1_000n }
    const honest = [
      { value: { num: 30n, den: 100n }, weight: 600n },
      { value: { num: 31n, den: 100n }, weight: 500n },
    ]
    // Under half, and exactly half (the old rule took the attacker's lower middle then).
    expect(weightedMedian([...honest, { value: attacker, weight: 1_000n }])).toEqual(
      honest[0]?.value,
    )
    expect(
      sameValue(weightedMedian([...honest, { value: attacker, weight: 1_100n }]), {
        num: 303n,
        den: 2_000n,
      }),
    ).toBe(true)
    expect(weightedMedian([...honest, { value: attacker, weight: 1_101n }])).toBe(attacker)
    // A pool of weight 0 takes no part.
    expect(weightedMedian([...honest, { value: attacker, weight: 0n }])).toEqual(honest[0]?.value)
  })

  it('refuses no weight, a negative weight, and a zero denominator', () => {
    expect(() => weightedMedian([])).toThrow(RangeError)
    expect(() => weightedMedian([{ value: { num: 1n, den: 1n }, weight: 0n }])).toThrow(RangeError)
    expect(() => weightedMedian([{ value: { num: 1n, den: 1n }, weight: -1n }])).toThrow(RangeError)
    expect(() => weightedMedian([{ value: { num: 1n, den: 0n }, weight: 1n }])).toThrow(RangeError)
  })
})
