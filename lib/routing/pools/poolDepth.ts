import { midPrice } from './midPrice'
import type { Pool } from './pool'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './tickMath'
import type { V2PoolState } from './v2Pool'
import { type V3PoolState, v3SwapExactIn } from './v3Pool'

// A pool's depth within ±x % of its price (DECISIONS §9.2): the liquidity that actually stands
// between the price and a move of x % each way, which a position one tick spacing wide cannot
// fake (its whole capital is all it adds, where in-range liquidity × √P counts it ~2,000 times
// at fee 500). Exact, in bigint.

const BPS = 10_000n

/** What moving a pool's price by the band takes out of it, each way (fees aside). */
export interface PoolDepth {
  /** token0 the pool pays out while its price (token1 per token0) rises by the band. */
  amount0: bigint
  /** token1 the pool pays out while its price falls by the band. */
  amount1: bigint
}

/** floor(√n), Newton's method on bigint. */
export function sqrtFloor(n: bigint): bigint {
  if (n < 0n) throw new RangeError('square root of a negative number')
  if (n < 2n) return n
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const next = (x + n / x) >> 1n
    if (next >= x) return x
    x = next
  }
}

function sqrtCeil(n: bigint): bigint {
  const root = sqrtFloor(n)
  return root * root === n ? root : root + 1n
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b

/**
 * The sqrt prices (Q64.96) `bps` below and above `sqrtPriceX96` in price terms, rounded inward
 * (the band never reaches past ±bps) and kept inside the prices a swap may reach.
 */
export function bandLimits(sqrtPriceX96: bigint, bps: number): { lower: bigint; upper: bigint } {
  if (!Number.isInteger(bps) || bps <= 0 || bps >= 10_000) {
    throw new RangeError(`a band of ${bps} bps`)
  }
  const square = sqrtPriceX96 * sqrtPriceX96
  const lower = sqrtCeil(ceilDiv(square * (BPS - BigInt(bps)), BPS))
  const upper = sqrtFloor((square * (BPS + BigInt(bps))) / BPS)
  return {
    lower: lower > MIN_SQRT_RATIO ? lower : MIN_SQRT_RATIO + 1n,
    upper: upper < MAX_SQRT_RATIO ? upper : MAX_SQRT_RATIO - 1n,
  }
}

/** An input no pool can absorb before its price reaches a limit (2^200 base units). */
const UNBOUNDED = 1n << 200n

/**
 * What the pool pays out while its price moves from where it is to `limit`: the output of a swap
 * with unbounded input and that price limit (v3SwapExactIn: UniswapV3Pool.swap's steps, each
 * step's output rounded down as the contract rounds it). Nothing is counted past the ticks that
 * were read (V3PoolState.known): liquidity nobody has seen is no depth.
 */
function v3Side(pool: V3PoolState, zeroForOne: boolean, limit: bigint): bigint {
  return v3SwapExactIn(pool, zeroForOne, UNBOUNDED, limit).amountOut
}

/**
 * A constant-product pair moved along x·y = k until its price is `bps` lower (token1 out) or
 * higher (token0 out): y·(1 − √(1 − x %)) and x·(1 − 1/√(1 + x %)), rounded down.
 */
function v2Depth(pool: V2PoolState, bps: number): PoolDepth {
  const { reserve0, reserve1 } = pool
  if (reserve0 <= 0n || reserve1 <= 0n) return { amount0: 0n, amount1: 0n }
  const band = BigInt(bps)
  // The reserve left: the least whole amount whose square holds the moved price.
  const left1 = sqrtCeil(ceilDiv(reserve1 * reserve1 * (BPS - band), BPS))
  const left0 = sqrtCeil(ceilDiv(reserve0 * reserve0 * BPS, BPS + band))
  return { amount0: reserve0 - left0, amount1: reserve1 - left1 }
}

/**
 * The pool's depth within ±`bps` of its price: the token0 it pays out while its price rises that
 * far and the token1 while it falls that far. V2: from its reserves. V3: from its ticks, across
 * every initialized tick in the band; what a swap to the band's edge would receive, to the unit.
 */
export function depthWithin(pool: Pool, bps: number): PoolDepth {
  if (pool.protocol === 'v2') return v2Depth(pool.state, bps)
  const { lower, upper } = bandLimits(pool.state.sqrtPriceX96, bps)
  // Ascending, as the tick search needs: the lens answers its words in the order it read them
  // (the price's first, then outward).
  const state = { ...pool.state, ticks: [...pool.state.ticks].sort((a, b) => a.index - b.index) }
  return {
    amount0: v3Side(state, false, upper),
    amount1: v3Side(state, true, lower),
  }
}

/**
 * The thinner side of a depth, valued in token1 (`inToken1`) or token0 at the pool's own price,
 * rounded down: how much moving the price costs the cheaper way.
 */
export function thinnerSide(pool: Pool, depth: PoolDepth, inToken1: boolean): bigint {
  const { num, den } = midPrice(pool, true)
  if (num === 0n || den === 0n) return 0n
  const other = inToken1 ? (depth.amount0 * num) / den : (depth.amount1 * den) / num
  const own = inToken1 ? depth.amount1 : depth.amount0
  return own < other ? own : other
}
