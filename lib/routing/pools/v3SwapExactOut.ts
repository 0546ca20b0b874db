import { computeSwapStepExactOut } from './swapStepExactOut'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, sqrtRatioAtTick } from './tickMath'
import { nextTickWithinOneWord, type V3PoolState, type V3SwapResult } from './v3Pool'

/** An exact-output swap: what it takes, besides what v3SwapExactIn reports. */
export interface V3SwapExactOutResult extends V3SwapResult {
  /** Input the pool takes, its fee included. */
  amountIn: bigint
}

/**
 * What the pool takes to pay exactly `amountOut` (UniswapV3Pool.swap with a negative amount, as
 * SwapRouter02's exactOutput calls it): the steps of v3SwapExactIn, each paying out what is left
 * (computeSwapStepExactOut), the input its amounts plus fees. `complete` is false where the price
 * reached its limit or the edge of the ticks read with output still owed: the router would revert
 * (it requires the whole amount), so the figures are a bound, not a quote.
 */
export function v3SwapExactOut(
  pool: V3PoolState,
  zeroForOne: boolean,
  amountOut: bigint,
): V3SwapExactOutResult {
  const priceLimit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const { ticks, tickSpacing, known } = pool
  const wanted = amountOut > 0n ? amountOut : 0n
  let remaining = wanted
  let amountIn = 0n
  let sqrtPrice = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = pool.liquidity
  let ticksCrossed = 0
  let wordsCrossed = 0
  let exact = true
  let tickSettled = true
  while (remaining !== 0n && sqrtPrice !== priceLimit) {
    const step = nextTickWithinOneWord(ticks, tick, zeroForOne, tickSpacing)
    let tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, step.next))
    let initialized = step.initialized
    let edge = false
    if (known) {
      if (zeroForOne && tickNext <= known.lower && known.lower > MIN_TICK) {
        tickNext = known.lower
        initialized = false
        edge = true
      } else if (!zeroForOne && tickNext >= known.upper && known.upper < MAX_TICK) {
        tickNext = known.upper
        initialized = false
        edge = true
      }
    }
    const sqrtPriceNext = sqrtRatioAtTick(tickNext)
    const target = (zeroForOne ? sqrtPriceNext < priceLimit : sqrtPriceNext > priceLimit)
      ? priceLimit
      : sqrtPriceNext
    const stepStart = sqrtPrice
    const swapped = computeSwapStepExactOut(sqrtPrice, target, liquidity, remaining, pool.fee)
    remaining -= swapped.amountOut
    amountIn += swapped.amountIn + swapped.feeAmount
    sqrtPrice = swapped.sqrtPriceNext
    if (sqrtPrice === sqrtPriceNext) {
      if (edge) {
        tick = tickNext
        tickSettled = true
        if (remaining !== 0n) exact = false
        break
      }
      if (initialized) {
        const net = ticks[step.position]?.liquidityNet ?? 0n
        liquidity += zeroForOne ? -net : net
        ticksCrossed += 1
      } else wordsCrossed += 1
      tick = zeroForOne ? tickNext - 1 : tickNext
      tickSettled = true
    } else if (sqrtPrice !== stepStart) {
      tickSettled = false
    }
  }
  return {
    amountIn,
    amountOut: wanted - remaining,
    amountInUsed: amountIn,
    ticksCrossed,
    wordsCrossed,
    complete: remaining === 0n,
    exact,
    sqrtPriceX96After: sqrtPrice,
    tickAfter: tickSettled ? tick : undefined,
    liquidityAfter: liquidity,
  }
}
