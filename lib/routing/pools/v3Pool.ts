import { computeSwapStepExactIn } from './swapStep'
import {
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from './tickMath'

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
   * The ticks a swap may reach on what was read (inclusive): every initialized tick strictly
   * between them is in `ticks`, but one may sit at either end or beyond, unread. A swap that
   * reaches an end with input left stops there, as if the pool were empty beyond (never as if
   * its liquidity went on), and says so (`exact: false`); MIN_TICK and MAX_TICK are the range's
   * own ends. Absent: every tick known.
   */
  known?: { lower: number; upper: number }
}

export interface V3SwapResult {
  amountOut: bigint
  /** Input the pool takes: the whole amount unless the swap stopped early (see `complete`). */
  amountInUsed: bigint
  /** Initialized ticks crossed (each costs the swap gas). */
  ticksCrossed: number
  /** Bitmap word edges the swap stepped to without an initialized tick (each a step of gas). */
  wordsCrossed: number
  /** False when the swap stopped (price limit, or the edge of what was read) with input left. */
  complete: boolean
  /**
   * False when the swap stopped at the edge of the ticks read with input left: the pool may pay
   * more than `amountOut` for the rest (reading further settles it); the figures are the
   * contract's for `amountInUsed`.
   */
  exact: boolean
  /** The pool after the swap, as the contract leaves it (see v3StateAfter). */
  sqrtPriceX96After: bigint
  /** Undefined where the swap ended inside a step: the tick is then the price's (computed on demand). */
  tickAfter: number | undefined
  liquidityAfter: bigint
}

/** The position of the first known tick whose index is > tick (binary search). */
function firstAbove(ticks: readonly InitializedTick[], tick: number): number {
  let low = 0
  let high = ticks.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((ticks[middle]?.index ?? 0) > tick) high = middle
    else low = middle + 1
  }
  return low
}

/**
 * The next initialized tick within the bitmap word the contract would look in
 * (TickBitmap.nextInitializedTickWithinOneWord), or that word's edge; `position` is the tick's
 * place in `ticks` when initialized.
 */
export function nextTickWithinOneWord(
  ticks: readonly InitializedTick[],
  tick: number,
  lte: boolean,
  tickSpacing: number,
): { next: number; initialized: boolean; position: number } {
  const compressed = Math.floor(tick / tickSpacing)
  if (lte) {
    const minimum = ((compressed >> 8) << 8) * tickSpacing
    const position = firstAbove(ticks, tick) - 1
    const found = ticks[position]
    if (found && found.index >= minimum) return { next: found.index, initialized: true, position }
    return { next: minimum, initialized: false, position: -1 }
  }
  const maximum = ((((compressed + 1) >> 8) << 8) + 255) * tickSpacing
  const position = firstAbove(ticks, tick)
  const found = ticks[position]
  if (found && found.index <= maximum) return { next: found.index, initialized: true, position }
  return { next: maximum, initialized: false, position: -1 }
}

/**
 * What the pool pays for exactly `amountIn` (UniswapV3Pool.swap with a positive amount),
 * stopping at `sqrtPriceLimitX96` (default: the extremes): steps of constant liquidity, each
 * bounded by the next initialized tick or bitmap word edge, the liquidity changed by
 * liquidityNet at each tick crossed; and stopping at the edge of the ticks known (see
 * V3PoolState.known). Step for step the contract's, so the amounts are its own, to the unit.
 */
export function v3SwapExactIn(
  pool: V3PoolState,
  zeroForOne: boolean,
  amountIn: bigint,
  sqrtPriceLimitX96?: bigint,
): V3SwapResult {
  const priceLimit = sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)
  const { ticks, tickSpacing, known } = pool
  let remaining = amountIn > 0n ? amountIn : 0n
  let amountOut = 0n
  let sqrtPrice = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = pool.liquidity
  let ticksCrossed = 0
  let wordsCrossed = 0
  let exact = true
  // The tick of the price is known exactly only at step ends that reach their target.
  let tickSettled = true
  while (remaining !== 0n && sqrtPrice !== priceLimit) {
    const step = nextTickWithinOneWord(ticks, tick, zeroForOne, tickSpacing)
    let tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, step.next))
    let initialized = step.initialized
    // The edge of what was read: the swap may reach it, not cross it.
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
    const swapped = computeSwapStepExactIn(sqrtPrice, target, liquidity, remaining, pool.fee)
    remaining -= swapped.amountIn + swapped.feeAmount
    amountOut += swapped.amountOut
    sqrtPrice = swapped.sqrtPriceNext
    if (sqrtPrice === sqrtPriceNext) {
      if (edge) {
        // Not crossed: nothing is known of the tick there.
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
      // Short of the step's end: the tick is the price's (the contract's getTickAtSqrtRatio).
      tickSettled = false
    }
  }
  return {
    amountOut,
    amountInUsed: (amountIn > 0n ? amountIn : 0n) - remaining,
    ticksCrossed,
    wordsCrossed,
    complete: remaining === 0n,
    exact,
    sqrtPriceX96After: sqrtPrice,
    tickAfter: tickSettled ? tick : undefined,
    liquidityAfter: liquidity,
  }
}

/**
 * The pool's state after `v3SwapExactIn` (its ticks and what is known of them unchanged). Where
 * the swap ended inside a step, the tick is the price's, computed when first asked for: most
 * states a search makes are never swapped again.
 */
export function v3StateAfter(pool: V3PoolState, swap: V3SwapResult): V3PoolState {
  const rest = {
    sqrtPriceX96: swap.sqrtPriceX96After,
    liquidity: swap.liquidityAfter,
    fee: pool.fee,
    tickSpacing: pool.tickSpacing,
    ticks: pool.ticks,
    ...(pool.known && { known: pool.known }),
  }
  const { tickAfter, sqrtPriceX96After } = swap
  if (tickAfter !== undefined) return { ...rest, tick: tickAfter }
  let tick: number | undefined
  return Object.defineProperty(rest, 'tick', {
    enumerable: true,
    get: () => (tick ??= tickAtSqrtRatio(sqrtPriceX96After)),
  }) as V3PoolState
}
