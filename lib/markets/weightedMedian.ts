import type { Fraction } from '../routing/pools/midPrice'

export interface Weighted {
  value: Fraction
  /** Not negative; a value of weight 0 takes no part. */
  weight: bigint
}

/** a < b, a = b or a > b as -1, 0, 1, by cross-multiplication (denominators are positive). */
export function compareFractions(a: Fraction, b: Fraction): number {
  const left = a.num * b.den
  const right = b.num * a.den
  return left < right ? -1 : left > right ? 1 : 0
}

/**
 * The weighted median of exact values (DECISIONS §9.2, §10.4: the price of a hop held by several
 * pools), the median of the values each written out as many times as its weight: the value with
 * strictly more than half of the total weight at or below it and at or above it. Where the weight
 * splits at exactly half between two values, neither half decides and the median is their
 * midpoint, so values holding half of the weight never carry it to their side alone. Otherwise it
 * is one of the values, unchanged (a single value is its own median).
 */
export function weightedMedian(items: readonly Weighted[]): Fraction {
  if (items.some((item) => item.weight < 0n || item.value.den <= 0n)) {
    throw new RangeError('weights must not be negative and denominators must be positive')
  }
  const sorted = items
    .filter((item) => item.weight > 0n)
    .sort((a, b) => compareFractions(a.value, b.value))
  const total = sorted.reduce((sum, item) => sum + item.weight, 0n)
  if (total === 0n) throw new RangeError('the median of no weight')
  let below = 0n
  for (const [index, item] of sorted.entries()) {
    below += item.weight
    if (below * 2n < total) continue
    const next = sorted[index + 1]
    // Exactly half at or below: the next value holds the other half, and neither decides.
    if (below * 2n === total && next && compareFractions(next.value, item.value) !== 0) {
      return midpoint(item.value, next.value)
    }
    return item.value
  }
  // Unreachable: the last item brings `below` to the total.
  throw new RangeError('no median')
}

function midpoint(a: Fraction, b: Fraction): Fraction {
  return { num: a.num * b.den + b.num * a.den, den: 2n * a.den * b.den }
}
