import type { TickEntry, V2State, V3State } from './poolTypes'

// The pools' swap math in native bigints: a line-by-line transcription of the Uniswap V3 SDK's
// `v3Swap` (SwapMath, SqrtPriceMath, TickMath, TickList) and of the V2 pair's getAmountOut. The
// SDKs price one hop in 30-250 µs (JSBI, and a keccak per V2 answer); the brute force prices
// hundreds of thousands of hops, so it searches with this and has every figure it reports priced
// again by the SDKs themselves, which must agree to the unit (sdkPoolMath.ts, bruteForce.ts).

const Q96 = 1n << 96n
const MAX_UINT_256 = (1n << 256n) - 1n
const MAX_UINT_160 = (1n << 160n) - 1n
const MAX_FEE = 1_000_000n
export const MIN_TICK = -887272
export const MAX_TICK = 887272
export const MIN_SQRT_RATIO = 4295128739n
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

/**
 * What a V2 pair charging `feeBps` pays for `amountIn` (UniswapV2Library.getAmountOut's form),
 * `amountIn` being all the pair holds beyond its input reserve.
 */
export function v2AmountOut(
  reserves: Pick<V2State, 'reserve0' | 'reserve1'>,
  zeroForOne: boolean,
  amountIn: bigint,
  feeBps: number,
): bigint {
  const [reserveIn, reserveOut] = zeroForOne
    ? [reserves.reserve0, reserves.reserve1]
    : [reserves.reserve1, reserves.reserve0]
  if (amountIn <= 0n || reserveIn === 0n || reserveOut === 0n) return 0n
  const inWithFee = amountIn * BigInt(10_000 - feeBps)
  return (inWithFee * reserveOut) / (reserveIn * 10_000n + inWithFee)
}

/** The input a pair sees when `received` arrives: that and any surplus it held already. */
export const v2Input = (state: V2State, zeroForOne: boolean, received: bigint) =>
  received + (zeroForOne ? state.surplus0 : state.surplus1)

/** The pair after a swap that took `amountIn` (surplus included) and paid `amountOut`: synced. */
export function v2After(
  state: V2State,
  zeroForOne: boolean,
  amountIn: bigint,
  amountOut: bigint,
): V2State {
  return zeroForOne
    ? {
        reserve0: state.reserve0 + amountIn,
        reserve1: state.reserve1 + state.surplus1 - amountOut,
        surplus0: 0n,
        surplus1: 0n,
      }
    : {
        reserve0: state.reserve0 + state.surplus0 - amountOut,
        reserve1: state.reserve1 + amountIn,
        surplus0: 0n,
        surplus1: 0n,
      }
}

const mulShift = (value: bigint, factor: bigint) => (value * factor) >> 128n

const TICK_FACTORS: readonly [number, bigint][] = [
  [0x2, 0xfff97272373d413259a46990580e213an],
  [0x4, 0xfff2e50f5f656932ef12357cf3c7fdccn],
  [0x8, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
  [0x10, 0xffcb9843d60f6159c9db58835c926644n],
  [0x20, 0xff973b41fa98c081472e6896dfb254c0n],
  [0x40, 0xff2ea16466c96a3843ec78b326b52861n],
  [0x80, 0xfe5dee046a99a2a811c461f1969c3053n],
  [0x100, 0xfcbe86c7900a88aedcffc83b479aa3a4n],
  [0x200, 0xf987a7253ac413176f2b074cf7815e54n],
  [0x400, 0xf3392b0822b70005940c7a398e4b70f3n],
  [0x800, 0xe7159475a2c29b7443b29c7fa6e889d9n],
  [0x1000, 0xd097f3bdfd2022b8845ad8f792aa5825n],
  [0x2000, 0xa9f746462d870fdf8a65dc1f90e061e5n],
  [0x4000, 0x70d869a156d2a1b890bb3df62baf32f7n],
  [0x8000, 0x31be135f97d08fd981231505542fcfa6n],
  [0x10000, 0x9aa508b5b7a84e1c677de54f3e99bc9n],
  [0x20000, 0x5d6af8dedb81196699c329225ee604n],
  [0x40000, 0x2216e584f5fa1ea926041bedfe98n],
  [0x80000, 0x48a170391f7dc42444e8fa2n],
]

const sqrtRatioCache = new Map<number, bigint>()

/** TickMath.getSqrtRatioAtTick (memoised: the same ticks come back all the time). */
export function sqrtRatioAtTick(tick: number): bigint {
  const known = sqrtRatioCache.get(tick)
  if (known !== undefined) return known
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) {
    throw new Error(`tick ${tick} out of range`)
  }
  const absTick = Math.abs(tick)
  let ratio =
    (absTick & 0x1) !== 0
      ? 0xfffcb933bd6fad37aa2d162d1a594001n
      : 0x100000000000000000000000000000000n
  for (const [bit, factor] of TICK_FACTORS) {
    if ((absTick & bit) !== 0) ratio = mulShift(ratio, factor)
  }
  if (tick > 0) ratio = MAX_UINT_256 / ratio
  const result = ratio % (1n << 32n) > 0n ? (ratio >> 32n) + 1n : ratio >> 32n
  sqrtRatioCache.set(tick, result)
  return result
}

/**
 * TickMath.getTickAtSqrtRatio by its definition: the largest tick whose ratio is at most
 * `sqrtRatio`, searched between two ticks known to bracket it.
 */
function tickAtSqrtRatio(sqrtRatio: bigint, low: number, high: number): number {
  let lo = Math.max(MIN_TICK, low)
  let hi = Math.min(MAX_TICK, high)
  if (sqrtRatioAtTick(lo) > sqrtRatio) throw new Error('tick search: lower bound above the price')
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2)
    if (sqrtRatioAtTick(mid) <= sqrtRatio) lo = mid
    else hi = mid - 1
  }
  return lo
}

function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const product = a * b
  const result = product / denominator
  return product % denominator !== 0n ? result + 1n : result
}

function amount0Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [low, high] = a > b ? [b, a] : [a, b]
  const numerator1 = liquidity << 96n
  const numerator2 = high - low
  return roundUp
    ? mulDivRoundingUp(mulDivRoundingUp(numerator1, numerator2, high), 1n, low)
    : (numerator1 * numerator2) / high / low
}

function amount1Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [low, high] = a > b ? [b, a] : [a, b]
  return roundUp ? mulDivRoundingUp(liquidity, high - low, Q96) : (liquidity * (high - low)) / Q96
}

function nextSqrtPriceFromInput(
  sqrtPrice: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPrice <= 0n || liquidity <= 0n) throw new Error('no price or no liquidity')
  if (zeroForOne) {
    if (amountIn === 0n) return sqrtPrice
    const numerator1 = liquidity << 96n
    // The SDK emulates uint256 overflow: the product and the sum wrap at 2^256.
    const product = (amountIn * sqrtPrice) & MAX_UINT_256
    if (product / amountIn === sqrtPrice) {
      const denominator = (numerator1 + product) & MAX_UINT_256
      if (denominator >= numerator1) return mulDivRoundingUp(numerator1, sqrtPrice, denominator)
    }
    return mulDivRoundingUp(numerator1, 1n, numerator1 / sqrtPrice + amountIn)
  }
  const quotient =
    amountIn <= MAX_UINT_160 ? (amountIn << 96n) / liquidity : (amountIn * Q96) / liquidity
  return sqrtPrice + quotient
}

/** SwapMath.computeSwapStep for an exact input (the only kind the brute force prices). */
function swapStep(
  current: bigint,
  target: bigint,
  liquidity: bigint,
  remaining: bigint,
  fee: bigint,
): { next: bigint; amountIn: bigint; amountOut: bigint; feeAmount: bigint } {
  const zeroForOne = current >= target
  const remainingLessFee = (remaining * (MAX_FEE - fee)) / MAX_FEE
  let amountIn = zeroForOne
    ? amount0Delta(target, current, liquidity, true)
    : amount1Delta(current, target, liquidity, true)
  const next =
    remainingLessFee >= amountIn
      ? target
      : nextSqrtPriceFromInput(current, liquidity, remainingLessFee, zeroForOne)
  const reached = next === target
  let amountOut: bigint
  if (zeroForOne) {
    if (!reached) amountIn = amount0Delta(next, current, liquidity, true)
    amountOut = amount1Delta(next, current, liquidity, false)
  } else {
    if (!reached) amountIn = amount1Delta(current, next, liquidity, true)
    amountOut = amount0Delta(current, next, liquidity, false)
  }
  const feeAmount = !reached ? remaining - amountIn : mulDivRoundingUp(amountIn, fee, MAX_FEE - fee)
  return { next, amountIn, amountOut, feeAmount }
}

/** Index of the largest tick ≤ `tick` (TickList.binarySearch); -1 when all are above. */
function largestAtOrBelow(ticks: readonly TickEntry[], tick: number): number {
  let lo = 0
  let hi = ticks.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if ((ticks[mid] as TickEntry).index <= tick) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/** TickList.nextInitializedTickWithinOneWord: the next step's end, and whether a tick is there. */
function nextTickWithinWord(
  ticks: readonly TickEntry[],
  tick: number,
  lte: boolean,
  tickSpacing: number,
): { next: number; initialized: boolean; entry?: TickEntry } {
  const compressed = Math.floor(tick / tickSpacing)
  const at = largestAtOrBelow(ticks, tick)
  if (lte) {
    const minimum = ((compressed >> 8) << 8) * tickSpacing
    if (at === -1) return { next: minimum, initialized: false }
    const entry = ticks[at] as TickEntry
    const next = Math.max(minimum, entry.index)
    return next === entry.index ? { next, initialized: true, entry } : { next, initialized: false }
  }
  const maximum = ((((compressed + 1) >> 8) + 1) * 256 - 1) * tickSpacing
  const last = ticks[ticks.length - 1]
  if (last === undefined || tick >= last.index) return { next: maximum, initialized: false }
  const entry = ticks[at + 1] as TickEntry
  const next = Math.min(maximum, entry.index)
  return next === entry.index ? { next, initialized: true, entry } : { next, initialized: false }
}

export interface V3SwapResult {
  amountOut: bigint
  /** The input the pool took: all of it, unless the price ran to its limit (`complete` false). */
  amountIn: bigint
  complete: boolean
  /** Initialized ticks crossed (the gas model charges each). */
  ticksCrossed: number
  after: V3State
}

/** v3Swap for an exact input, without a price limit (the router's exactInput passes none). */
export function v3SwapExactIn(
  state: V3State,
  fee: number,
  tickSpacing: number,
  zeroForOne: boolean,
  amountIn: bigint,
): V3SwapResult {
  // A pool nobody initialized (or drained) cannot swap: it pays nothing.
  if (state.sqrtPriceX96 === 0n || (state.liquidity === 0n && state.ticks.length === 0)) {
    return { amountOut: 0n, amountIn: 0n, complete: false, ticksCrossed: 0, after: state }
  }
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const feePips = BigInt(fee)
  let remaining = amountIn
  let out = 0n
  let sqrtPrice = state.sqrtPriceX96
  let tick = state.tick
  let liquidity = state.liquidity
  let ticksCrossed = 0
  while (remaining !== 0n && sqrtPrice !== limit) {
    const start = sqrtPrice
    const step = nextTickWithinWord(state.ticks, tick, zeroForOne, tickSpacing)
    const tickNext = Math.min(Math.max(step.next, MIN_TICK), MAX_TICK)
    const priceNext = sqrtRatioAtTick(tickNext)
    const target = (zeroForOne ? priceNext < limit : priceNext > limit) ? limit : priceNext
    const swapped = swapStep(sqrtPrice, target, liquidity, remaining, feePips)
    sqrtPrice = swapped.next
    remaining -= swapped.amountIn + swapped.feeAmount
    out += swapped.amountOut
    if (sqrtPrice === priceNext) {
      if (step.initialized && step.entry) {
        const net = zeroForOne ? -step.entry.liquidityNet : step.entry.liquidityNet
        liquidity += net
        ticksCrossed += 1
      }
      tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (sqrtPrice !== start) {
      tick = zeroForOne
        ? tickAtSqrtRatio(sqrtPrice, tickNext, tick)
        : tickAtSqrtRatio(sqrtPrice, tick, tickNext)
    }
  }
  return {
    amountOut: out,
    amountIn: amountIn - remaining,
    complete: remaining === 0n,
    ticksCrossed,
    after: { sqrtPriceX96: sqrtPrice, tick, liquidity, ticks: state.ticks },
  }
}
