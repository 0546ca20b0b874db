import type { PoolAccumulators } from '../chain/readAccumulators'
import { type Fraction, priceAtSqrt, priceOfReserves } from '../routing/pools/midPrice'
import { sqrtRatioAtTick } from '../routing/pools/tickMath'
import { type HopPool, hopPools, type PricingPath } from '../db/priceBoundary'
import { weightedMedian } from './weightedMedian'

// The arithmetic of DECISIONS §8.3 and §9.2, free of I/O: a pool's accumulator at any moment, a
// pool's time-weighted average between two moments, a hop's price (its pool's, or the
// depth-weighted median of its pools'), and the USD price of a pricing path. Exact: bigint
// fractions throughout (tokenOut base units per tokenIn base unit), one rounding (down) at the end.

const Q112 = 1n << 112n
const UINT256 = 1n << 256n
const UINT32 = 1n << 32n

/**
 * The hop's accumulator at `at` (Unix seconds), from the pool's state at the last block before
 * it (nothing changed between): a V2 pair's cumulative price of tokenIn, extended from its last
 * update as UniswapV2OracleLibrary.currentCumulativePrices does (with `at` for the block time,
 * the UQ112x112 price times the seconds, mod 2^256); a V3 pool's tick cumulative, extended from
 * the block by the current tick, which is what observe() answers at `at`. Undefined for a pair
 * without reserves.
 */
export function cumulativeAt(
  pool: PoolAccumulators,
  zeroForOne: boolean,
  at: bigint,
): bigint | undefined {
  if (pool.protocol === 'v3') return pool.tickCumulative + BigInt(pool.tick) * (at - pool.timestamp)
  if (pool.reserve0 === 0n || pool.reserve1 === 0n) return undefined
  const last = zeroForOne ? pool.price0CumulativeLast : pool.price1CumulativeLast
  // uint32 arithmetic, overflow desired, as the pair's own.
  const elapsed = ((((at % UINT32) - BigInt(pool.blockTimestampLast)) % UINT32) + UINT32) % UINT32
  const price = zeroForOne
    ? (pool.reserve1 << 112n) / pool.reserve0
    : (pool.reserve0 << 112n) / pool.reserve1
  return (last + price * elapsed) % UINT256
}

/**
 * A pool's average price between two accumulator values `seconds` apart: V2, the cumulative's
 * difference (mod 2^256) over the seconds, in UQ112x112; V3, 1.0001 to the arithmetic mean
 * tick (rounded toward negative infinity, as OracleLibrary.consult), read as TickMath's sqrt
 * ratio squared (a geometric mean).
 */
function poolAverage(hop: HopPool, start: bigint, end: bigint, seconds: bigint): Fraction {
  if (hop.protocol === 'v2') {
    return { num: (((end - start) % UINT256) + UINT256) % UINT256, den: seconds * Q112 }
  }
  const delta = end - start
  let meanTick = delta / seconds
  if (delta < 0n && delta % seconds !== 0n) meanTick -= 1n
  return priceAtSqrt(sqrtRatioAtTick(Number(meanTick)), hop.zeroForOne)
}

/** A pool's price now: a V2 pair's reserves, a V3 pool's price. */
function poolSpot(hop: HopPool, pool: PoolAccumulators): Fraction {
  return pool.protocol === 'v2'
    ? priceOfReserves(pool.reserve0, pool.reserve1, hop.zeroForOne)
    : priceAtSqrt(pool.sqrtPriceX96, hop.zeroForOne)
}

/**
 * Each pool's weight in its hop's median (DECISIONS §10.4): its smallest sampled depth over the
 * bucket (`weights`, by lower-cased address; a pool missing from them counts 0), so capital counts
 * only if it stayed through every sample. Where no sample weighs the hop (a backfilled bucket, or
 * every pool of the hop emptied at some sample) the depths of the path's review weigh it.
 */
export function hopWeights(
  pools: readonly HopPool[],
  weights: ReadonlyMap<string, bigint> | undefined,
): bigint[] {
  if (weights) {
    const sampled = pools.map((pool) => weights.get(pool.pool.toLowerCase()) ?? 0n)
    if (sampled.some((weight) => weight > 0n)) return sampled
  }
  const reviewed = pools.map((pool) => BigInt(pool.depth ?? '0'))
  return reviewed.some((weight) => weight > 0n) ? reviewed : pools.map(() => 1n)
}

/**
 * Each hop's price from its pools' (one figure each, in pathPools order): the one pool's alone, or
 * their weighted median (DECISIONS §9.2, §10.4), weighted as hopWeights says.
 */
function hopPrices(
  path: PricingPath,
  priceOf: (pool: HopPool, index: number) => Fraction,
  weights: ReadonlyMap<string, bigint> | undefined,
): Fraction[] {
  let index = 0
  return path.hops.map((hop) => {
    const pools = hopPools(hop)
    const prices = pools.map((pool) => priceOf(pool, index++))
    const [only] = prices
    if (prices.length === 1 && only) return only
    const weightOf = hopWeights(pools, weights)
    return weightedMedian(prices.map((value, at) => ({ value, weight: weightOf[at] ?? 0n })))
  })
}

/** The product of the hops' prices as USD per whole token, 18 decimals, rounded down. */
function toUsdE18(path: PricingPath, fractions: readonly Fraction[]): bigint {
  let num = 10n ** BigInt(path.tokenDecimals + 18)
  let den = 10n ** BigInt(path.usdDecimals)
  for (const fraction of fractions) {
    num *= fraction.num
    den *= fraction.den
  }
  return den === 0n ? 0n : num / den
}

/**
 * The time-weighted average USD price of one whole token (18 decimals) between two readings of
 * the path's accumulators (one per pool, in pathPools order) `seconds` apart: the product of the
 * hops' averages (the way oracles chain a token/WETH and a WETH/USDC pool), a hop's average being
 * its pool's, or the weighted median of its pools' averages, weighted by `weights` (the bucket's
 * smallest sampled depths) as hopWeights says.
 */
export function pathAverageE18(
  path: PricingPath,
  start: readonly bigint[],
  end: readonly bigint[],
  seconds: bigint,
  weights?: ReadonlyMap<string, bigint>,
): bigint {
  if (seconds <= 0n) throw new RangeError('an average needs a positive interval')
  return toUsdE18(
    path,
    hopPrices(
      path,
      (pool, index) => poolAverage(pool, start[index] ?? 0n, end[index] ?? 0n, seconds),
      weights,
    ),
  )
}

/**
 * The path's price now (USD per whole token, 18 decimals): the pools' own prices, as above,
 * weighted by their depths now where the run sampled them.
 */
export function pathSpotE18(
  path: PricingPath,
  pools: readonly PoolAccumulators[],
  weights?: ReadonlyMap<string, bigint>,
): bigint {
  return toUsdE18(
    path,
    hopPrices(
      path,
      (hop, index) => {
        const pool = pools[index]
        return pool ? poolSpot(hop, pool) : { num: 0n, den: 1n }
      },
      weights,
    ),
  )
}
