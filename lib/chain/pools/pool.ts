import type { Address } from 'viem'
import { v2SwapExactIn, type V2PoolState } from './v2Pool'
import { v3SwapExactIn, type V3PoolState } from './v3Pool'
import { Q96 } from './tickMath'

/** A pool as read from the chain, tokens sorted as the pool sorts them (token0 < token1). */
export type Pool =
  | { protocol: 'v2'; address: Address; token0: Address; token1: Address; state: V2PoolState }
  | { protocol: 'v3'; address: Address; token0: Address; token1: Address; state: V3PoolState }

export interface PoolQuote {
  amountOut: bigint
  /** V3 only: initialized ticks crossed. */
  ticksCrossed: number
  /** False when the pool could not take the whole input by what was read (a lower bound then). */
  complete: boolean
  /** False when a V3 pool's swap left the ticks read (an estimate; see V3SwapResult). */
  exact: boolean
}

export const sameToken = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase()

/** The other side of a pool (undefined when `token` is not in it). */
export function otherToken(pool: Pool, token: Address): Address | undefined {
  if (sameToken(pool.token0, token)) return pool.token1
  if (sameToken(pool.token1, token)) return pool.token0
  return undefined
}

/** What `pool` pays for exactly `amountIn` of `tokenIn`. */
export function quotePool(pool: Pool, tokenIn: Address, amountIn: bigint): PoolQuote {
  const zeroForOne = sameToken(pool.token0, tokenIn)
  if (pool.protocol === 'v2') {
    const amountOut = v2SwapExactIn(pool.state, zeroForOne, amountIn)
    const reserveOut = zeroForOne ? pool.state.reserve1 : pool.state.reserve0
    return {
      amountOut,
      ticksCrossed: 0,
      complete: amountOut > 0n && amountOut < reserveOut,
      exact: true,
    }
  }
  const swap = v3SwapExactIn(pool.state, zeroForOne, amountIn)
  return {
    amountOut: swap.amountOut,
    ticksCrossed: swap.ticksCrossed,
    complete: swap.complete,
    exact: swap.exact,
  }
}

/**
 * The pool's depth in token0 at its price: V2's reserve0, V3's in-range virtual reserve
 * L / √P. Only pools of the same pair are compared by it (same token0).
 */
export function depthInToken0(pool: Pool): bigint {
  if (pool.protocol === 'v2') return pool.state.reserve0
  return pool.state.sqrtPriceX96 === 0n
    ? 0n
    : (pool.state.liquidity * Q96) / pool.state.sqrtPriceX96
}
