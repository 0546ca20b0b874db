import type { Address } from 'viem'
import { type Pool, sameToken } from './pool'
import { v2StateAfter, type V2PoolState } from './v2Pool'
import { v3StateAfter } from './v3Pool'
import { v3SwapExactOut } from './v3SwapExactOut'

// The pools' exact-output math (DECISIONS §10.1), beside pool.ts's exact-input: what a pool takes
// to pay exactly an amount, as SwapRouter02's exact-output calls make it.

export interface PoolQuoteExactOut {
  /** What the pool takes, its fee included (the router's amountIn). */
  amountIn: bigint
  ticksCrossed: number
  wordsCrossed: number
  /** False when the pool cannot pay the whole amount by what was read (the router reverts). */
  complete: boolean
  /** False when a V3 swap reached the edge of the ticks read still owing output. */
  exact: boolean
}

/**
 * What the pair takes for exactly `amountOut` (UniswapV2Library.getAmountIn: rounded down, plus
 * one); undefined when the pair holds no more than `amountOut` (it reverts).
 */
export function v2AmountIn(
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps: number,
): bigint | undefined {
  if (amountOut <= 0n) return 0n
  if (reserveIn <= 0n || reserveOut <= amountOut) return undefined
  const numerator = reserveIn * amountOut * 10_000n
  const denominator = (reserveOut - amountOut) * BigInt(10_000 - feeBps)
  return numerator / denominator + 1n
}

function v2SwapExactOut(
  state: V2PoolState,
  zeroForOne: boolean,
  amountOut: bigint,
): { quote: PoolQuoteExactOut; state: V2PoolState } {
  const [reserveIn, reserveOut] = zeroForOne
    ? [state.reserve0, state.reserve1]
    : [state.reserve1, state.reserve0]
  const amountIn = v2AmountIn(amountOut, reserveIn, reserveOut, state.feeBps)
  const quote = {
    amountIn: amountIn ?? 0n,
    ticksCrossed: 0,
    wordsCrossed: 0,
    complete: amountIn !== undefined,
    exact: true,
  }
  if (amountIn === undefined) return { quote, state }
  return { quote, state: v2StateAfter(state, zeroForOne, amountIn, amountOut) }
}

/** What `pool` takes of `tokenIn` to pay exactly `amountOut`, and the pool as that leaves it. */
export function swapPoolExactOut(
  pool: Pool,
  tokenIn: Address,
  amountOut: bigint,
): { quote: PoolQuoteExactOut; after: Pool } {
  const zeroForOne = sameToken(pool.token0, tokenIn)
  if (pool.protocol === 'v2') {
    const { quote, state } = v2SwapExactOut(pool.state, zeroForOne, amountOut)
    return { quote, after: { ...pool, state } }
  }
  const swap = v3SwapExactOut(pool.state, zeroForOne, amountOut)
  return {
    quote: {
      amountIn: swap.amountIn,
      ticksCrossed: swap.ticksCrossed,
      wordsCrossed: swap.wordsCrossed,
      complete: swap.complete,
      exact: swap.exact,
    },
    after: { ...pool, state: v3StateAfter(pool.state, swap) },
  }
}
