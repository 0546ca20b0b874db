import type { Address } from 'viem'
import { v2StateAfter, v2SwapExactIn, type V2PoolState } from './v2Pool'
import { v3StateAfter, v3SwapExactIn, type V3PoolState } from './v3Pool'

/** A pool as read from the chain, tokens sorted as the pool sorts them (token0 < token1). */
export type Pool =
  | { protocol: 'v2'; address: Address; token0: Address; token1: Address; state: V2PoolState }
  | { protocol: 'v3'; address: Address; token0: Address; token1: Address; state: V3PoolState }

export interface PoolQuote {
  amountOut: bigint
  /** V3 only: initialized ticks crossed. */
  ticksCrossed: number
  /** V3 only: bitmap word edges stepped to without an initialized tick. */
  wordsCrossed: number
  /** False when the pool could not take the whole input by what was read (a lower bound then). */
  complete: boolean
  /** False when a V3 pool's swap reached the edge of the ticks read with input left. */
  exact: boolean
}

export const sameToken = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase()

/** The other side of a pool (undefined when `token` is not in it). */
export function otherToken(pool: Pool, token: Address): Address | undefined {
  if (sameToken(pool.token0, token)) return pool.token1
  if (sameToken(pool.token1, token)) return pool.token0
  return undefined
}

/** What `pool` pays for exactly `amountIn` of `tokenIn` (swapPool without the pool after). */
export function quotePool(pool: Pool, tokenIn: Address, amountIn: bigint): PoolQuote {
  const zeroForOne = sameToken(pool.token0, tokenIn)
  if (pool.protocol === 'v2') return v2Quote(pool.state, zeroForOne, amountIn)
  const swap = v3SwapExactIn(pool.state, zeroForOne, amountIn)
  return {
    amountOut: swap.amountOut,
    ticksCrossed: swap.ticksCrossed,
    wordsCrossed: swap.wordsCrossed,
    complete: swap.complete,
    exact: swap.exact,
  }
}

function v2Quote(state: V2PoolState, zeroForOne: boolean, amountIn: bigint): PoolQuote {
  const amountOut = v2SwapExactIn(state, zeroForOne, amountIn)
  const reserveOut = zeroForOne ? state.reserve1 : state.reserve0
  return {
    amountOut,
    ticksCrossed: 0,
    wordsCrossed: 0,
    complete: amountIn <= 0n || (amountOut > 0n && amountOut < reserveOut),
    exact: true,
  }
}

/** What `pool` pays for exactly `amountIn` of `tokenIn`, and the pool as the swap leaves it. */
export function swapPool(
  pool: Pool,
  tokenIn: Address,
  amountIn: bigint,
): { quote: PoolQuote; after: Pool } {
  const zeroForOne = sameToken(pool.token0, tokenIn)
  if (pool.protocol === 'v2') {
    const quote = v2Quote(pool.state, zeroForOne, amountIn)
    const state = v2StateAfter(pool.state, zeroForOne, amountIn, quote.amountOut)
    return { quote, after: { ...pool, state } }
  }
  const swap = v3SwapExactIn(pool.state, zeroForOne, amountIn)
  return {
    quote: {
      amountOut: swap.amountOut,
      ticksCrossed: swap.ticksCrossed,
      wordsCrossed: swap.wordsCrossed,
      complete: swap.complete,
      exact: swap.exact,
    },
    after: { ...pool, state: v3StateAfter(pool.state, swap) },
  }
}
