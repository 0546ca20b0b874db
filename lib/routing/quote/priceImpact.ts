import { type Fraction, midPrice } from '../pools/midPrice'
import { type Pool, sameToken } from '../pools/pool'

/** A pool's rate for a first unit of input, as an exact fraction: mid price less the fee. */
function spotFraction(pool: Pool, tokenIn: Pool['token0']): Fraction {
  const mid = midPrice(pool, sameToken(pool.token0, tokenIn))
  const [keep, whole] =
    pool.protocol === 'v2'
      ? [BigInt(10_000 - pool.state.feeBps), 10_000n]
      : [BigInt(1_000_000 - pool.state.fee), 1_000_000n]
  return { num: keep * mid.num, den: whole * mid.den }
}

/** A route of the answer as the impact needs it: its input and its pools as quoted. */
export interface ImpactRoute {
  amountIn: bigint
  hops: readonly { pool: Pool; tokenIn: Pool['token0'] }[]
}

/**
 * Price impact in basis points (DECISIONS §9.3): how far `amountOut` (the simulated figure) falls
 * short of what each route's input would fetch at its pools' first-unit rates (mid price less
 * the fee) at the quoted block, rounded down; 0 when it does not fall short.
 */
export function priceImpactBps(routes: readonly ImpactRoute[], amountOut: bigint): number {
  let numerator = 0n
  let denominator = 1n
  for (const route of routes) {
    let legNumerator = route.amountIn
    let legDenominator = 1n
    for (const hop of route.hops) {
      const rate = spotFraction(hop.pool, hop.tokenIn)
      legNumerator *= rate.num
      legDenominator *= rate.den
    }
    // numerator / denominator += legNumerator / legDenominator
    numerator = numerator * legDenominator + legNumerator * denominator
    denominator *= legDenominator
  }
  if (numerator === 0n) return 0
  // spot = numerator / denominator; impact = (spot − out) / spot.
  const shortfall = numerator - amountOut * denominator
  if (shortfall <= 0n) return 0
  const bps = (shortfall * 10_000n) / numerator
  return Number(bps > 10_000n ? 10_000n : bps)
}
