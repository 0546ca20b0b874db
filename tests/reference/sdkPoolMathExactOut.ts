import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { InsufficientReservesError, Pair } from '@uniswap/v2-sdk'
import { TickListDataProvider, v3Swap } from '@uniswap/v3-sdk'
import JSBI from 'jsbi'
import { getAddress } from 'viem'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './fastPoolMath'
import type { TickEntry, V2PoolInfo, V2State, V3PoolInfo, V3State } from './poolTypes'
import { SDK_V2_FEE_BPS } from './sdkPoolMath'

// The exact-output pool math the reference answers with (DECISIONS §10.1): the Uniswap SDKs, not
// lib/routing/pools: the V2 SDK's Pair.getInputAmount, the V3 SDK's swap loop with a negative
// amount (what its Pool.getInputAmount and an EXACT_OUTPUT Trade run).

const sdkToken = (address: string) => new Token(1, getAddress(address), 18)
const jsbi = (value: bigint) => JSBI.BigInt(value.toString())
const big = (value: JSBI) => BigInt(value.toString())

/**
 * What the pair takes for exactly `amountOut`, by the V2 SDK's Pair (UniswapV2Library.getAmountIn
 * by formula for a pair charging another fee than the SDK's); undefined where it cannot pay it.
 */
export function sdkV2AmountIn(
  pool: V2PoolInfo,
  state: Pick<V2State, 'reserve0' | 'reserve1'>,
  zeroForOne: boolean,
  amountOut: bigint,
): bigint | undefined {
  const [reserveIn, reserveOut] = zeroForOne
    ? [state.reserve0, state.reserve1]
    : [state.reserve1, state.reserve0]
  if (pool.feeBps !== SDK_V2_FEE_BPS) {
    if (amountOut >= reserveOut) return undefined
    return (
      (reserveIn * amountOut * 10_000n) /
        ((reserveOut - amountOut) * BigInt(10_000 - pool.feeBps)) +
      1n
    )
  }
  const pair = new Pair(
    CurrencyAmount.fromRawAmount(sdkToken(pool.token0), jsbi(state.reserve0)),
    CurrencyAmount.fromRawAmount(sdkToken(pool.token1), jsbi(state.reserve1)),
  )
  const output = sdkToken(zeroForOne ? pool.token1 : pool.token0)
  try {
    const [input] = pair.getInputAmount(CurrencyAmount.fromRawAmount(output, jsbi(amountOut)))
    return big(input.quotient)
  } catch (error) {
    if (error instanceof InsufficientReservesError) return undefined
    throw error
  }
}

export interface SdkV3SwapExactOut {
  amountIn: bigint
  /** False when the price ran to its limit before paying the whole amount (the router reverts). */
  complete: boolean
  /** Initialized ticks between the price before and after (the gas model's ticks crossed). */
  ticksCrossed: number
  after: V3State
}

function ticksBetween(ticks: readonly TickEntry[], from: number, to: number): number {
  const [low, high] = from < to ? [from, to] : [to, from]
  return ticks.filter((tick) => tick.index > low && tick.index <= high).length
}

/** An exact-output swap by the V3 SDK's `v3Swap` over the pool's whole tick list. */
export async function sdkV3SwapExactOut(
  pool: V3PoolInfo,
  state: V3State,
  zeroForOne: boolean,
  amountOut: bigint,
): Promise<SdkV3SwapExactOut> {
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const list = state.ticks.map((tick) => ({
    index: tick.index,
    liquidityNet: jsbi(tick.liquidityNet),
    liquidityGross: jsbi(tick.liquidityNet < 0n ? -tick.liquidityNet : tick.liquidityNet),
  }))
  const result = await v3Swap(
    JSBI.BigInt(pool.fee),
    jsbi(state.sqrtPriceX96),
    state.tick,
    jsbi(state.liquidity),
    pool.tickSpacing,
    new TickListDataProvider(list, pool.tickSpacing),
    zeroForOne,
    jsbi(-amountOut),
  )
  const sqrtPriceX96 = big(result.sqrtRatioX96)
  return {
    amountIn: big(result.amountCalculated),
    complete: sqrtPriceX96 !== limit,
    ticksCrossed: ticksBetween(state.ticks, state.tick, result.tickCurrent),
    after: {
      sqrtPriceX96,
      tick: result.tickCurrent,
      liquidity: big(result.liquidity),
      ticks: state.ticks,
    },
  }
}
