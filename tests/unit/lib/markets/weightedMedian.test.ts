import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Fraction, weightedMedian } from '../../../../lib/markets/weightedMedian'

// The reference: each value written out as many times as its weight, sorted, and the middle one
// taken (the lower middle of an even count), which is what a depth-weighted median means.

const SEED = 902_033

const fraction = fc.record({
  num: fc.bigInt({ min: 0n, max: 1n << 80n }),
  den: fc.bigInt({ min: 1n, max: 1n << 80n }),
})
// Few distinct values, so ties and equal fractions written differently (1/2 and 2/4) come up.
const items = fc.array(
  fc.record({
    value: fc.oneof(
      fraction,
      fc
        .record({ num: fc.bigInt({ min: 0n, max: 4n }), scale: fc.bigInt({ min: 1n, max: 3n }) })
        .map(({ num, scale }) => ({ num: num * scale, den: 2n * scale })),
    ),
    weight: fc.bigInt({ min: 1n, max: 25n }),
  }),
  { minLength: 1, maxLength: 9 },
)

const sameValue = (a: Fraction, b: Fraction) => a.num * b.den === b.num * a.den

function expandedMiddle(list: ReadonlyArray<{ value: Fraction; weight: bigint }>): Fraction {
  const expanded = list.flatMap(({ value, weight }) =>
    Array.from({ length: Number(weight) }, () => value),
  )
  expanded.sort((a, b) => {
    const difference = a.num * b.den - b.num * a.den
    return difference < 0n ? -1 : difference > 0n ? 1 : 0
  })
  const middle = expanded[Math.ceil(expanded.length / 2) - 1]
  if (!middle) throw new Error('empty')
  return middle
}

describe('the depth-weighted median', () => {
  it('is the middle of the values each written out as many times as its weight, exactly', () => {
    fc.assert(
      fc.property(items, (list) => {
        const median = weightedMedian(list)
        expect(sameValue(median, expandedMiddle(list))).toBe(true)
        // One of the values, unchanged: no rounding, no interpolation.
        expect(list.some(({ value }) => value === median)).toBe(true)
      }),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('does not depend on the order of the pools', () => {
    fc.assert(
      fc.property(
        items.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length })),
        ),
        ([list, shuffled]) => {
          expect(sameValue(weightedMedian(list), weightedMedian(shuffled))).toBe(true)
        },
      ),
      { numRuns: 1_000, seed: SEED },
    )
  })

  it('is a single pool’s own price, and follows pools holding more than half the weight', () => {
    const price = { num: 31n, den: 100n }
    expect(weightedMedian([{ value: price, weight: 7n }])).toBe(price)
    const attacker = { num: 3_000n, den: 100n }
    const honest = [
      { value: { num: 30n, den: 100n }, weight: 600n },
      { value: { num: 31n, den: 100n }, weight: 500n },
    ]
    expect(weightedMedian([...honest, { value: attacker, weight: 1_000n }])).toEqual({
      num: 31n,
      den: 100n,
    })
    expect(weightedMedian([...honest, { value: attacker, weight: 1_200n }])).toBe(attacker)
  })

  it('refuses no values, a weight that is not positive, and a zero denominator', () => {
    expect(() => weightedMedian([])).toThrow(RangeError)
    expect(() => weightedMedian([{ value: { num: 1n, den: 1n }, weight: 0n }])).toThrow(RangeError)
    expect(() => weightedMedian([{ value: { num: 1n, den: 0n }, weight: 1n }])).toThrow(RangeError)
  })
})
