import { type Pool, sameToken } from '../pools/pool'

const Q192 = 1n << 192n

/** A pool's rate for a first unit of input, as an exact fraction: mid price less the fee. */
function spotFraction(
  pool: Pool,
  tokenIn: Pool['token0'],
): { numerator: bigint; denominator: bigint } {
  const zeroForOne = sameToken(pool.token0, tokenIn)
  if (pool.protocol === 'v2') {
    const [reserveIn, reserveOut] = zeroForOne
      ? [pool.state.reserve0, pool.state.reserve1]
      : [pool.state.reserve1, pool.state.reserve0]
    const keep = BigInt(10_000 - pool.state.feeBps)
    return { numerator: keep * reserveOut, denominator: 10_000n * reserveIn }
  }
  const keep = BigInt(1_000_000 - pool.state.fee)
  const square = pool.state.sqrtPriceX96 * pool.state.sqrtPriceX96
  return zeroForOne
    ? { numerator: keep * square, denominator: 1_000_000n * Q192 }
    : { numerator: keep * Q192, denominator: 1_000_000n * square }
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
      legNumerator *= rate.numerator
      legDenominator *= rate.denominator
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
