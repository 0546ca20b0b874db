// Uniswap V3's TickMath and FullMath in bigint, value for value (PancakeSwap V3 uses the same).

export const MIN_TICK = -887272
export const MAX_TICK = 887272
export const MIN_SQRT_RATIO = 4295128739n
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n
export const Q96 = 1n << 96n
const MAX_UINT256 = (1n << 256n) - 1n

/** The factors of sqrt(1.0001)^-(2^i) in Q128, for bits 1..19 of the tick (TickMath.sol). */
const TICK_FACTORS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
]

/**
 * Ticks' sqrt prices computed so far: a swap steps to the same few ticks again and again (the
 * initialized ones, the word edges), and each costs 19 bigint products. Bounded, started over
 * when full.
 */
const sqrtRatios = new Map<number, bigint>()
const SQRT_RATIOS_KEPT = 20_000

/** sqrt(1.0001^tick) in Q64.96, rounded up as TickMath.getSqrtRatioAtTick does. */
export function sqrtRatioAtTick(tick: number): bigint {
  const known = sqrtRatios.get(tick)
  if (known !== undefined) return known
  const ratio = computeSqrtRatioAtTick(tick)
  if (sqrtRatios.size >= SQRT_RATIOS_KEPT) sqrtRatios.clear()
  sqrtRatios.set(tick, ratio)
  return ratio
}

function computeSqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) {
    throw new RangeError(`tick ${tick} out of range`)
  }
  const absTick = Math.abs(tick)
  let ratio = absTick & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 1n << 128n
  TICK_FACTORS.forEach((factor, index) => {
    if (absTick & (2 << index)) ratio = (ratio * factor) >> 128n
  })
  if (tick > 0) ratio = MAX_UINT256 / ratio
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n)
}

/**
 * The greatest tick whose sqrt price is at most `sqrtPriceX96` (TickMath.getTickAtSqrtRatio):
 * a float estimate (within a tick: the price's 53 bits are plenty), settled exactly against
 * sqrtRatioAtTick.
 */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  const estimate = Math.floor((2 * Math.log(Number(sqrtPriceX96) / 2 ** 96)) / Math.log(1.0001))
  let tick = Math.min(MAX_TICK, Math.max(MIN_TICK, estimate))
  while (tick > MIN_TICK && computeSqrtRatioAtTick(tick) > sqrtPriceX96) tick -= 1
  while (tick < MAX_TICK && computeSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) tick += 1
  return tick
}

/** floor(a × b / denominator), as FullMath.mulDiv (exact in bigint). */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  return (a * b) / denominator
}

/** ceil(a × b / denominator), as FullMath.mulDivRoundingUp. */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const product = a * b
  const quotient = product / denominator
  return product % denominator === 0n ? quotient : quotient + 1n
}

/** ceil(a / b), as UnsafeMath.divRoundingUp. */
export function divRoundingUp(a: bigint, b: bigint): bigint {
  return a / b + (a % b === 0n ? 0n : 1n)
}
