import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { InsufficientInputAmountError, Pair } from '@uniswap/v2-sdk'
import { TickListDataProvider, v3Swap } from '@uniswap/v3-sdk'
import JSBI from 'jsbi'
import { getAddress } from 'viem'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO, v2AmountOut } from './fastPoolMath'
import type { TickEntry, V2PoolInfo, V2State, V3PoolInfo, V3State } from './poolTypes'

// The pool math the reference answers with: the Uniswap V2 and V3 SDKs (devDependencies), not
// the service's lib/routing/pools. Their raw amounts need no decimals, so every token is an SDK
// token of 18 decimals on chain 1 (the SDK derives a pair's address from its own factory map).

/** The fee the V2 SDK's Pair charges (997/1000); a pair charging another is priced by formula. */
export const SDK_V2_FEE_BPS = 30

const sdkToken = (address: string) => new Token(1, getAddress(address), 18)
const jsbi = (value: bigint) => JSBI.BigInt(value.toString())
const big = (value: JSBI) => BigInt(value.toString())

/**
 * What the pair pays for `amountIn` (all it holds beyond the input reserve), by the V2 SDK's Pair. A pair whose measured fee is not the
 * SDK's 30 bps (PancakeSwap V2 takes 25) is priced by UniswapV2Library's formula with its fee:
 * the SDK has no fee parameter. 0 where the SDK says the input buys nothing.
 */
export function sdkV2AmountOut(
  pool: V2PoolInfo,
  state: Pick<V2State, 'reserve0' | 'reserve1'>,
  zeroForOne: boolean,
  amountIn: bigint,
): bigint {
  if (pool.feeBps !== SDK_V2_FEE_BPS) return v2AmountOut(state, zeroForOne, amountIn, pool.feeBps)
  const pair = new Pair(
    CurrencyAmount.fromRawAmount(sdkToken(pool.token0), jsbi(state.reserve0)),
    CurrencyAmount.fromRawAmount(sdkToken(pool.token1), jsbi(state.reserve1)),
  )
  const input = sdkToken(zeroForOne ? pool.token0 : pool.token1)
  try {
    const [out] = pair.getOutputAmount(CurrencyAmount.fromRawAmount(input, jsbi(amountIn)))
    return big(out.quotient)
  } catch (error) {
    // The SDK's way of saying "0 out" (the pair would refuse the swap); anything else is a failure.
    if (error instanceof InsufficientInputAmountError) return 0n
    throw error
  }
}

const providers = new WeakMap<readonly TickEntry[], Map<number, TickListDataProvider>>()

/** The SDK's tick provider for a pool's whole tick list (it checks order, spacing and zero net). */
function tickProvider(ticks: readonly TickEntry[], tickSpacing: number): TickListDataProvider {
  let bySpacing = providers.get(ticks)
  if (!bySpacing) {
    bySpacing = new Map()
    providers.set(ticks, bySpacing)
  }
  let provider = bySpacing.get(tickSpacing)
  if (!provider) {
    const list = ticks.map((tick) => ({
      index: tick.index,
      liquidityNet: jsbi(tick.liquidityNet),
      liquidityGross: jsbi(tick.liquidityNet < 0n ? -tick.liquidityNet : tick.liquidityNet),
    }))
    provider = new TickListDataProvider(list, tickSpacing)
    bySpacing.set(tickSpacing, provider)
  }
  return provider
}

export interface SdkV3Swap {
  amountOut: bigint
  /** False when the price ran to its limit before the input was used up. */
  complete: boolean
  after: V3State
}

/** An exact-input swap by the V3 SDK's `v3Swap` over the pool's whole tick list. */
export async function sdkV3Swap(
  pool: V3PoolInfo,
  state: V3State,
  zeroForOne: boolean,
  amountIn: bigint,
): Promise<SdkV3Swap> {
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const result = await v3Swap(
    JSBI.BigInt(pool.fee),
    jsbi(state.sqrtPriceX96),
    state.tick,
    jsbi(state.liquidity),
    pool.tickSpacing,
    tickProvider(state.ticks, pool.tickSpacing),
    zeroForOne,
    jsbi(amountIn),
  )
  const sqrtPriceX96 = big(result.sqrtRatioX96)
  return {
    amountOut: -big(result.amountCalculated),
    complete: sqrtPriceX96 !== limit,
    after: {
      sqrtPriceX96,
      tick: result.tickCurrent,
      liquidity: big(result.liquidity),
      ticks: state.ticks,
    },
  }
}
