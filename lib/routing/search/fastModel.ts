import { type Pool, sameToken } from '../pools/pool'
import { MAX_TICK, MIN_TICK } from '../pools/tickMath'
import type { RouteGasUnits } from '../../config'
import type { Hop } from '../paths/enumeratePaths'
import { heldCallGas } from '../gas/gasModel'

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
  | {
      protocol: 'v2'
      reserve0: number
      reserve1: number
      keep: number
      initial: FastState
    }
  | {
      protocol: 'v3'
      sqrtPrice: number
      liquidity: number
      keep: number
      /** Initialized ticks ascending, and the sqrt prices a swap may reach on what was read. */
      ticks: FastTick[]
      lowest: number
      highest: number
      /** The state as read (states are never changed in place, so one serves every search). */
      initial: FastState
    }

/** A pool's state as trades leave it in the model (never changed: a trade makes a new one). */
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
    const reserve0 = Number(pool.state.reserve0)
    const reserve1 = Number(pool.state.reserve1)
    fast = {
      protocol: 'v2',
      reserve0,
      reserve1,
      keep: (10_000 - pool.state.feeBps) / 10_000,
      initial: { protocol: 'v2', reserve0, reserve1 },
    }
  } else {
    const { known: range } = pool.state
    const sqrtPrice = Number(pool.state.sqrtPriceX96) / 2 ** 96
    const liquidity = Number(pool.state.liquidity)
    const ticks = pool.state.ticks.map((tick) => ({
      sqrtPrice: sqrtPriceAt(tick.index),
      liquidityNet: Number(tick.liquidityNet),
    }))
    let above = 0
    while (above < ticks.length && (ticks[above]?.sqrtPrice ?? 0) <= sqrtPrice) above += 1
    fast = {
      protocol: 'v3',
      sqrtPrice,
      liquidity,
      keep: (1_000_000 - pool.state.fee) / 1_000_000,
      ticks,
      lowest: range && range.lower > MIN_TICK ? sqrtPriceAt(range.lower) : 0,
      highest:
        range && range.upper < MAX_TICK ? sqrtPriceAt(range.upper) : Number.POSITIVE_INFINITY,
      initial: { protocol: 'v3', sqrtPrice, liquidity, above },
    }
  }
  prepared.set(pool, fast)
  return fast
}

/** Pool states as a search's trades leave them (a pool not in it is as read). */
export type FastStates = Map<Pool, FastState>

/**
 * What a swap gives and where it leaves the pool. One record, written by every swap: the search
 * walks routes some ten thousand times a quote, and most walks keep no state (update false), so
 * a swap allocates nothing; a state is made only when a walk keeps it (stateAfter).
 */
interface SwapOutcome {
  amountOut: number
  /** What one more unit of input would pay where the swap left the pool. */
  marginal: number
  ticksCrossed: number
  zeroForOne: boolean
  /** V2: the reserves after, as in and out. */
  reserveIn: number
  reserveOut: number
  /** V3: the price, liquidity and tick position after. */
  sqrtPrice: number
  liquidity: number
  above: number
}

const outcome: SwapOutcome = {
  amountOut: 0,
  marginal: 0,
  ticksCrossed: 0,
  zeroForOne: true,
  reserveIn: 0,
  reserveOut: 0,
  sqrtPrice: 0,
  liquidity: 0,
  above: 0,
}

/** Whether `tokenIn` is the pool's token0 (a hop's tokens are the pool's own strings). */
const isZeroForOne = (pool: Pool, tokenIn: Pool['token0']) =>
  tokenIn === pool.token0 || (tokenIn !== pool.token1 && sameToken(pool.token0, tokenIn))

function swap(fast: FastPool, from: FastState, zeroForOne: boolean, amountIn: number): SwapOutcome {
  outcome.zeroForOne = zeroForOne
  if (fast.protocol === 'v2' && from.protocol === 'v2') {
    const [reserveIn, reserveOut] = zeroForOne
      ? [from.reserve0, from.reserve1]
      : [from.reserve1, from.reserve0]
    const effective = amountIn * fast.keep
    const amountOut = (effective * reserveOut) / (reserveIn + effective)
    const inAfter = reserveIn + amountIn
    const outAfter = reserveOut - amountOut
    outcome.amountOut = amountOut
    outcome.marginal = (fast.keep * outAfter) / inAfter
    outcome.ticksCrossed = 0
    outcome.reserveIn = inAfter
    outcome.reserveOut = outAfter
    return outcome
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
  outcome.amountOut = amountOut
  outcome.marginal = stopped || liquidity <= 0 ? 0 : fast.keep * (zeroForOne ? price : 1 / price)
  outcome.ticksCrossed = ticksCrossed
  outcome.sqrtPrice = sqrtPrice
  outcome.liquidity = liquidity
  outcome.above = above
  return outcome
}

/** The state the last swap (`outcome`) left its pool in. */
function stateAfter(fast: FastPool, swapped: SwapOutcome): FastState {
  if (fast.protocol === 'v2') {
    return swapped.zeroForOne
      ? { protocol: 'v2', reserve0: swapped.reserveIn, reserve1: swapped.reserveOut }
      : { protocol: 'v2', reserve0: swapped.reserveOut, reserve1: swapped.reserveIn }
  }
  return {
    protocol: 'v3',
    sqrtPrice: swapped.sqrtPrice,
    liquidity: swapped.liquidity,
    above: swapped.above,
  }
}

/** A path's figures in the model: output, marginal output, and gas units (RouteGasUnits). */
export interface FastRoute {
  amountOut: number
  marginal: number
  gas: number
}

/** A hop as the model walks it: its pool prepared and its direction, found once per path. */
interface PreparedHop {
  pool: Pool
  fast: FastPool
  zeroForOne: boolean
}

const preparedPaths = new WeakMap<readonly Hop[], PreparedHop[]>()

/** The path's hops prepared, once per path (the search walks each path thousands of times). */
function preparePath(hops: readonly Hop[]): PreparedHop[] {
  let path = preparedPaths.get(hops)
  if (!path) {
    path = hops.map((hop) => ({
      pool: hop.pool,
      fast: prepare(hop.pool),
      zeroForOne: isZeroForOne(hop.pool, hop.tokenIn),
    }))
    preparedPaths.set(hops, path)
  }
  return path
}

/** The gas units as numbers, once per settings object. */
const numericUnits = new WeakMap<
  RouteGasUnits,
  {
    route: number
    v2Call: number
    v2Hop: number
    v3Hop: number
    tick: number
    connector: number
    heldCall: number
  }
>()

function unitsOf(units: RouteGasUnits) {
  let numbers = numericUnits.get(units)
  if (!numbers) {
    numbers = {
      route: Number(units.route),
      v2Call: Number(units.v2Call ?? 0n),
      v2Hop: Number(units.v2Hop),
      v3Hop: Number(units.v3Hop),
      tick: Number(units.tickCrossed),
      connector: Number(units.connectorToken ?? 0n),
      heldCall: Number(heldCallGas(units)),
    }
    numericUnits.set(units, numbers)
  }
  return numbers
}

/** A path's figures for `amountIn` on `states`, which it updates if asked. */
export function fastRoute(
  hops: readonly Hop[],
  amountIn: number,
  states: FastStates,
  update: boolean,
  units: RouteGasUnits,
): FastRoute {
  const gasUnits = unitsOf(units)
  let amount = amountIn
  let marginal = 1
  let gas = gasUnits.route
  let previous: 'v2' | 'v3' | undefined
  for (const hop of preparePath(hops)) {
    const swapped = swap(hop.fast, states.get(hop.pool) ?? hop.fast.initial, hop.zeroForOne, amount)
    if (update) states.set(hop.pool, stateAfter(hop.fast, swapped))
    amount = swapped.amountOut
    marginal *= swapped.marginal
    // Consecutive V2 hops share one router call (gasModel.routeGas).
    gas +=
      hop.fast.protocol === 'v2'
        ? gasUnits.v2Hop + (previous === 'v2' ? 0 : gasUnits.v2Call)
        : gasUnits.v3Hop + gasUnits.tick * swapped.ticksCrossed
    // As gasModel.routeGas: a token passed through, a router call after the first.
    if (previous) gas += gasUnits.connector
    if (previous && (hop.fast.protocol === 'v3' || previous === 'v3')) gas += gasUnits.heldCall
    previous = hop.fast.protocol
  }
  return { amountOut: amount, marginal, gas }
}

/** A pool's rate for a next unit of input (mid price less the fee), as `states` left it. */
export function fastSpotRate(pool: Pool, tokenIn: Pool['token0'], states?: FastStates): number {
  const fast = prepare(pool)
  return spotRate(fast, states?.get(pool) ?? fast.initial, isZeroForOne(pool, tokenIn))
}

function spotRate(fast: FastPool, state: FastState, zeroForOne: boolean): number {
  if (fast.protocol === 'v2' && state.protocol === 'v2') {
    const [reserveIn, reserveOut] = zeroForOne
      ? [state.reserve0, state.reserve1]
      : [state.reserve1, state.reserve0]
    return (fast.keep * reserveOut) / reserveIn
  }
  if (state.protocol !== 'v3' || state.liquidity <= 0) return 0
  const price = state.sqrtPrice * state.sqrtPrice
  return fast.keep * (zeroForOne ? price : 1 / price)
}

/**
 * What one more unit of input into the path pays where a split's trades left the pools: the
 * product of each hop's rate there. At the best split every route in use pays alike (a pool that
 * several routes share counts at its state after all of them, as the chain ends it).
 */
export function fastMarginal(hops: readonly Hop[], states: FastStates): number {
  let rate = 1
  for (const hop of preparePath(hops)) {
    rate *= spotRate(hop.fast, states.get(hop.pool) ?? hop.fast.initial, hop.zeroForOne)
  }
  return rate
}
