/** A non-negative fraction, exact: `num / den` with `den` > 0. */
export interface Fraction {
  num: bigint
  den: bigint
}

export interface Weighted {
  value: Fraction
  /** Positive. */
  weight: bigint
}

/** a < b, a = b or a > b as -1, 0, 1, by cross-multiplication (denominators are positive). */
export function compareFractions(a: Fraction, b: Fraction): number {
  const left = a.num * b.den
  const right = b.num * a.den
  return left < right ? -1 : left > right ? 1 : 0
}

/**
 * The weighted median of exact values (DECISIONS §9.2, the price of a hop held by several pools):
 * the lowest value with at least half of the total weight at or below it. It is always one of the
 * values, unchanged, so a single value is its own median; moving it takes values that hold half
 * the weight.
 */
export function weightedMedian(items: readonly Weighted[]): Fraction {
  if (items.length === 0) throw new RangeError('the median of nothing')
  if (items.some((item) => item.weight <= 0n || item.value.den <= 0n)) {
    throw new RangeError('weights and denominators must be positive')
  }
  const sorted = [...items].sort((a, b) => compareFractions(a.value, b.value))
  const total = sorted.reduce((sum, item) => sum + item.weight, 0n)
  let below = 0n
  for (const item of sorted) {
    below += item.weight
    if (below * 2n >= total) return item.value
  }
  // Unreachable: the last item brings `below` to the total.
  throw new RangeError('no median')
}
