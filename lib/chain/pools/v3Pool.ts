import { computeSwapStepExactIn } from './swapStep'
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, sqrtRatioAtTick } from './tickMath'

export interface InitializedTick {
  index: number
  /** Liquidity added when the price crosses the tick upward (removed downward). */
  liquidityNet: bigint
}

/** A concentrated-liquidity pool as slot0(), liquidity() and its tick bitmap describe it. */
export interface V3PoolState {
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  /** Pips: hundredths of a basis point (3000 = 0.3 %). */
  fee: number
  tickSpacing: number
  /** The initialized ticks known, ascending. */
  ticks: readonly InitializedTick[]
  /**
   * The tick-bitmap words read (inclusive word positions, a word being 256 tick spacings). The
   * ticks of other words are unknown: a swap that reaches one goes on as if it held none, in one
   * step to the next known tick or the price's end, and says it is not exact. Absent: all known.
   */
  knownWords?: { lower: number; upper: number }
}

export interface V3SwapResult {
  amountOut: bigint
  /** Input the pool takes: the whole amount unless the swap stopped early (see `complete`). */
  amountInUsed: bigint
  /** Initialized ticks crossed (each costs the swap gas). */
  ticksCrossed: number
  /** False when the swap stopped at the price limit before using the whole input. */
  complete: boolean
  /**
   * False when the swap ran into bitmap words that were not read: the amounts then assume they
   * hold no initialized tick (and steps there are not the contract's), an estimate.
   */
  exact: boolean
  sqrtPriceX96After: bigint
}

/** The largest known initialized tick ≤ `tick`, or the smallest > `tick` (binary search). */
function neighbourIndex(ticks: readonly InitializedTick[], tick: number, lte: boolean): number {
  let low = 0
  let high = ticks.length
  // First position whose index is > tick.
  while (low < high) {
    const middle = (low + high) >> 1
    if ((ticks[middle]?.index ?? 0) > tick) high = middle
    else low = middle + 1
  }
  return lte ? low - 1 : low
}

/**
 * The next initialized tick within the bitmap word the contract would look in
 * (TickBitmap.nextInitializedTickWithinOneWord), or that word's edge; and the word's position.
 */
export function nextTickWithinOneWord(
  ticks: readonly InitializedTick[],
  tick: number,
  lte: boolean,
  tickSpacing: number,
): { next: number; initialized: boolean; word: number } {
  const compressed = Math.floor(tick / tickSpacing)
  if (lte) {
    const word = compressed >> 8
    const minimum = (word << 8) * tickSpacing
    const found = ticks[neighbourIndex(ticks, tick, true)]
    if (found && found.index >= minimum) return { next: found.index, initialized: true, word }
    return { next: minimum, initialized: false, word }
  }
  const word = (compressed + 1) >> 8
  const maximum = ((word << 8) + 255) * tickSpacing
  const found = ticks[neighbourIndex(ticks, tick, false)]
  if (found && found.index <= maximum) return { next: found.index, initialized: true, word }
  return { next: maximum, initialized: false, word }
}

/** The next known initialized tick in the swap's direction, else the end of the price range. */
function nextKnownTick(
  ticks: readonly InitializedTick[],
  tick: number,
  lte: boolean,
): { next: number; initialized: boolean; word: number } {
  const found = ticks[neighbourIndex(ticks, tick, lte)]
  if (found) return { next: found.index, initialized: true, word: 0 }
  return { next: lte ? MIN_TICK : MAX_TICK, initialized: false, word: 0 }
}

/**
 * What the pool pays for exactly `amountIn` (UniswapV3Pool.swap with a positive amount and no
 * price limit beyond the extremes): steps of constant liquidity, each bounded by the next
 * initialized tick or bitmap word edge, the liquidity changed by liquidityNet at each tick crossed.
 */
export function v3SwapExactIn(
  pool: V3PoolState,
  zeroForOne: boolean,
  amountIn: bigint,
): V3SwapResult {
  const priceLimit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const liquidityNet = new Map(pool.ticks.map((tick) => [tick.index, tick.liquidityNet]))
  let remaining = amountIn
  let amountOut = 0n
  let sqrtPrice = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = pool.liquidity
  let ticksCrossed = 0
  let complete = true
  let exact = true
  if (amountIn <= 0n) {
    return {
      amountOut: 0n,
      amountInUsed: 0n,
      ticksCrossed,
      complete,
      exact,
      sqrtPriceX96After: sqrtPrice,
    }
  }
  while (remaining !== 0n) {
    if (sqrtPrice === priceLimit) {
      complete = false
      break
    }
    let step = nextTickWithinOneWord(pool.ticks, tick, zeroForOne, pool.tickSpacing)
    const { knownWords } = pool
    if (knownWords && (step.word < knownWords.lower || step.word > knownWords.upper)) {
      exact = false
      step = nextKnownTick(pool.ticks, tick, zeroForOne)
    }
    const tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, step.next))
    const sqrtPriceNext = sqrtRatioAtTick(tickNext)
    const target = (zeroForOne ? sqrtPriceNext < priceLimit : sqrtPriceNext > priceLimit)
      ? priceLimit
      : sqrtPriceNext
    const swapped = computeSwapStepExactIn(sqrtPrice, target, liquidity, remaining, pool.fee)
    remaining -= swapped.amountIn + swapped.feeAmount
    amountOut += swapped.amountOut
    sqrtPrice = swapped.sqrtPriceNext
    if (sqrtPrice === sqrtPriceNext) {
      if (step.initialized) {
        const net = liquidityNet.get(tickNext) ?? 0n
        liquidity += zeroForOne ? -net : net
        ticksCrossed += 1
      }
      tick = zeroForOne ? tickNext - 1 : tickNext
    }
    // Short of the next tick the step used all that was left, so the loop ends here and the
    // pool's new tick (getTickAtSqrtRatio) is never needed.
  }
  return {
    amountOut,
    amountInUsed: amountIn - remaining,
    ticksCrossed,
    complete,
    exact,
    sqrtPriceX96After: sqrtPrice,
  }
}
