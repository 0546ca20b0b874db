import type { Pool } from './pool'

// A pool's mid price, written once (issue 42): the quote's price impact, a pool's depth valued at
// its own price, the pricing paths and their time-weighted prices all read it from here, as one
// exact fraction type.

/** A non-negative fraction, exact: `num / den` with `den` > 0 wherever a price is defined. */
export interface Fraction {
  num: bigint
  den: bigint
}

const Q192 = 1n << 192n

/**
 * The price a V3 sqrt price (Q64.96) stands for, exact: token1 base units per token0 base unit,
 * sqrtPriceX96² / 2^192, when `zeroForOne`; token0 per token1 otherwise.
 */
export function priceAtSqrt(sqrtPriceX96: bigint, zeroForOne: boolean): Fraction {
  const square = sqrtPriceX96 * sqrtPriceX96
  return zeroForOne ? { num: square, den: Q192 } : { num: Q192, den: square }
}

/** A V2 pair's price from its reserves: token1 per token0 when `zeroForOne`, else token0 per token1. */
export function priceOfReserves(reserve0: bigint, reserve1: bigint, zeroForOne: boolean): Fraction {
  return zeroForOne ? { num: reserve1, den: reserve0 } : { num: reserve0, den: reserve1 }
}

/**
 * A pool's mid price, fees aside: base units of the token out per base unit of the token in
 * (token0 in when `zeroForOne`), from a V2 pair's reserves or a V3 pool's sqrt price.
 */
export function midPrice(pool: Pool, zeroForOne: boolean): Fraction {
  return pool.protocol === 'v2'
    ? priceOfReserves(pool.state.reserve0, pool.state.reserve1, zeroForOne)
    : priceAtSqrt(pool.state.sqrtPriceX96, zeroForOne)
}
