import { type Pool, sameToken } from '../chain/pools/pool'
import { MAX_TICK, MIN_TICK } from '../chain/pools/tickMath'
import type { RouteGasUnits } from '../config'
import type { Hop } from './paths'

// The search's model of a pool: the same curves as the exact math (x·y = k with the fee on the
// input; V3's constant-liquidity ranges between initialized ticks, liquidityNet at each, the
// fee taken off the input, stopping at the edge of the ticks read), in floating point. It only
// ranks candidates, which it does some hundred times faster than the exact bigint math; every
// split the search answers is priced again exactly (priceSplit), and only that figure counts.
// Its error is rounding (about 1e-15 relative, and the contract's unit per step), far below the
// 1 bps the search is judged by.

/** A V3 range boundary as the model walks it. */
interface FastTick {
  sqrtPrice: number
  liquidityNet: number
}

/** What the model keeps of a pool: its read state, prepared once. */
type FastPool =
  | { protocol: 'v2'; reserve0: number; reserve1: number; keep: number }
  | {
      protocol: 'v3'
      sqrtPrice: number
      liquidity: number
      keep: number
      /** Initialized ticks ascending, and the sqrt prices a swap may reach on what was read. */
      ticks: FastTick[]
      lowest: number
      highest: number
    }

/** A pool's state as trades leave it in the model. */
type FastState =
  | { protocol: 'v2'; reserve0: number; reserve1: number }
  | {
      protocol: 'v3'
      sqrtPrice: number
      liquidity: number
      /** Position in `ticks` of the first tick above the price. */
      above: number
    }

const sqrtPriceAt = (tick: number) => Math.pow(1.0001, tick / 2)

const prepared = new WeakMap<Pool, FastPool>()

function prepare(pool: Pool): FastPool {
  const known = prepared.get(pool)
  if (known) return known
  let fast: FastPool
  if (pool.protocol === 'v2') {
    fast = {
      protocol: 'v2',
      reserve0: Number(pool.state.reserve0),
      reserve1: Number(pool.state.reserve1),
      keep: (10_000 - pool.state.feeBps) / 10_000,
    }
  } else {
    const { known: range } = pool.state
    fast = {
      protocol: 'v3',
      sqrtPrice: Number(pool.state.sqrtPriceX96) / 2 ** 96,
      liquidity: Number(pool.state.liquidity),
      keep: (1_000_000 - pool.state.fee) / 1_000_000,
      ticks: pool.state.ticks.map((tick) => ({
        sqrtPrice: sqrtPriceAt(tick.index),
        liquidityNet: Number(tick.liquidityNet),
      })),
      lowest: range && range.lower > MIN_TICK ? sqrtPriceAt(range.lower) : 0,
      highest:
        range && range.upper < MAX_TICK ? sqrtPriceAt(range.upper) : Number.POSITIVE_INFINITY,
    }
  }
  prepared.set(pool, fast)
  return fast
}

function initialState(fast: FastPool): FastState {
  if (fast.protocol === 'v2') {
    return { protocol: 'v2', reserve0: fast.reserve0, reserve1: fast.reserve1 }
  }
  let above = 0
  while (above < fast.ticks.length && (fast.ticks[above]?.sqrtPrice ?? 0) <= fast.sqrtPrice) {
    above += 1
  }
  return { protocol: 'v3', sqrtPrice: fast.sqrtPrice, liquidity: fast.liquidity, above }
}

/** Pool states as a search's trades leave them (a pool not in it is as read). */
export type FastStates = Map<Pool, FastState>

export interface FastSwap {
  amountOut: number
  /** What one more unit of input would pay where the swap left the pool. */
  marginal: number
  ticksCrossed: number
  after: FastState
}

function swap(
  pool: Pool,
  state: FastState | undefined,
  tokenIn: Pool['token0'],
  amountIn: number,
): FastSwap {
  const fast = prepare(pool)
  const from = state ?? initialState(fast)
  // The same string first: a hop's tokens are the pool's own (sameToken lowers both cases).
  const zeroForOne =
    tokenIn === pool.token0 || (tokenIn !== pool.token1 && sameToken(pool.token0, tokenIn))
  if (fast.protocol === 'v2' && from.protocol === 'v2') {
    const [reserveIn, reserveOut] = zeroForOne
      ? [from.reserve0, from.reserve1]
      : [from.reserve1, from.reserve0]
    const effective = amountIn * fast.keep
    const amountOut = (effective * reserveOut) / (reserveIn + effective)
    const inAfter = reserveIn + amountIn
    const outAfter = reserveOut - amountOut
    return {
      amountOut,
      marginal: (fast.keep * outAfter) / inAfter,
      ticksCrossed: 0,
      after: zeroForOne
        ? { protocol: 'v2', reserve0: inAfter, reserve1: outAfter }
        : { protocol: 'v2', reserve0: outAfter, reserve1: inAfter },
    }
  }
  if (fast.protocol !== 'v3' || from.protocol !== 'v3') throw new Error('pool and state differ')
  let remaining = amountIn * fast.keep
  let { sqrtPrice, liquidity, above } = from
  let amountOut = 0
  let ticksCrossed = 0
  let stopped = false
  while (remaining > 0) {
    // The next boundary: an initialized tick, or the edge of what was read.
    const tick = zeroForOne ? fast.ticks[above - 1] : fast.ticks[above]
    let target = tick?.sqrtPrice ?? (zeroForOne ? fast.lowest : fast.highest)
    const edge = zeroForOne ? fast.lowest : fast.highest
    const atEdge = zeroForOne ? target <= edge : target >= edge
    if (atEdge) target = edge
    if (liquidity > 0) {
      const needed = zeroForOne
        ? liquidity * (1 / target - 1 / sqrtPrice)
        : liquidity * (target - sqrtPrice)
      if (remaining < needed || !Number.isFinite(target) || target === 0) {
        const next = zeroForOne
          ? (liquidity * sqrtPrice) / (liquidity + remaining * sqrtPrice)
          : sqrtPrice + remaining / liquidity
        amountOut += zeroForOne
          ? liquidity * (sqrtPrice - next)
          : liquidity * (1 / sqrtPrice - 1 / next)
        sqrtPrice = next
        remaining = 0
        break
      }
      amountOut += zeroForOne
        ? liquidity * (sqrtPrice - target)
        : liquidity * (1 / sqrtPrice - 1 / target)
      remaining -= needed
    } else if (!Number.isFinite(target) || target === 0) {
      stopped = true
      break
    }
    sqrtPrice = target
    if (atEdge) {
      stopped = true
      break
    }
    if (tick) {
      liquidity += zeroForOne ? -tick.liquidityNet : tick.liquidityNet
      above += zeroForOne ? -1 : 1
      ticksCrossed += 1
    }
  }
  const price = sqrtPrice * sqrtPrice
  return {
    amountOut,
    marginal: stopped || liquidity <= 0 ? 0 : fast.keep * (zeroForOne ? price : 1 / price),
    ticksCrossed,
    after: { protocol: 'v3', sqrtPrice, liquidity, above },
  }
}

/** A path's figures in the model: output, marginal output, and gas units (RouteGasUnits). */
export interface FastRoute {
  amountOut: number
  marginal: number
  gas: number
}

/** A path's figures for `amountIn` on `states`, which it updates if asked. */
export function fastRoute(
  hops: readonly Hop[],
  amountIn: number,
  states: FastStates,
  update: boolean,
  units: RouteGasUnits,
): FastRoute {
  let amount = amountIn
  let marginal = 1
  let gas = Number(units.route)
  for (const hop of hops) {
    const swapped = swap(hop.pool, states.get(hop.pool), hop.tokenIn, amount)
    if (update) states.set(hop.pool, swapped.after)
    amount = swapped.amountOut
    marginal *= swapped.marginal
    gas +=
      hop.pool.protocol === 'v2'
        ? Number(units.v2Hop)
        : Number(units.v3Hop) + Number(units.tickCrossed) * swapped.ticksCrossed
  }
  return { amountOut: amount, marginal, gas }
}

/** A pool's rate for a next unit of input (mid price less the fee), as `states` left it. */
export function fastSpotRate(pool: Pool, tokenIn: Pool['token0'], states?: FastStates): number {
  return swap(pool, states?.get(pool), tokenIn, 0).marginal
}

/**
 * What one more unit of input into the path pays where a split's trades left the pools: the
 * product of each hop's rate there. At the best split every route in use pays alike (a pool that
 * several routes share counts at its state after all of them, as the chain ends it).
 */
export function fastMarginal(hops: readonly Hop[], states: FastStates): number {
  return hops.reduce((rate, hop) => rate * fastSpotRate(hop.pool, hop.tokenIn, states), 1)
}
