import { type Pool, swapPool } from '../pools/pool'
import type { RouteGasUnits } from '../../config'
import { gasCost, type GasPriceInToken1, routeGas } from '../gas/gasModel'
import type { Hop } from '../paths/enumeratePaths'

// The exact quoter (DECISIONS §8.1, §9.3): a split priced on the pools' own math, route after
// route in the order the router runs them, on one copy of the pools' state, so routes that share
// a pool are priced together (the second sees the pool the first left).

export interface PricedHop extends Hop {
  amountIn: bigint
  amountOut: bigint
  ticksCrossed: number
  /** V3: bitmap word edges stepped to without an initialized tick. */
  wordsCrossed: number
  /** False where a V3 swap reached the edge of the ticks read with input left (see V3PoolState.known). */
  exact: boolean
  /** The pool as this hop found it, and as it left it. */
  before: Pool
  after: Pool
}

export interface PricedRoute {
  hops: PricedHop[]
  amountIn: bigint
  amountOut: bigint
  /** Units: the route's leg and hops (gasModel.routeGas). */
  gas: bigint
  exact: boolean
}

export interface PricedSplit {
  routes: PricedRoute[]
  amountIn: bigint
  amountOut: bigint
  /** Units, the transaction's included. */
  gas: bigint
  gasCostToken1: bigint
  /** amountOut − gasCostToken1: what the search maximises. */
  net: bigint
  /** Every hop priced on ticks that were read. */
  exact: boolean
}

/** A route and its input, as the search hands it over. */
export interface Leg {
  hops: readonly Hop[]
  amountIn: bigint
}

/** The pools as trades leave them: the quote's own pools untouched, changes kept aside. */
export type PoolStates = Map<string, Pool>

export const poolKey = (pool: Pool) => pool.address.toLowerCase()

/** The pool as `states` has it (the pool read, unless a trade changed it). */
export function currentPool(states: PoolStates, pool: Pool): Pool {
  return states.get(poolKey(pool)) ?? pool
}

/** One route priced at `amountIn` on `states`, which it updates (pass a copy to keep them). */
export function priceRoute(
  hops: readonly Hop[],
  amountIn: bigint,
  states: PoolStates,
  units: RouteGasUnits,
): PricedRoute {
  const priced: PricedHop[] = []
  let amount = amountIn
  let exact = true
  for (const hop of hops) {
    const before = currentPool(states, hop.pool)
    const { quote, after } = swapPool(before, hop.tokenIn, amount)
    states.set(poolKey(hop.pool), after)
    priced.push({
      ...hop,
      amountIn: amount,
      amountOut: quote.amountOut,
      ticksCrossed: quote.ticksCrossed,
      wordsCrossed: quote.wordsCrossed,
      exact: quote.exact,
      before,
      after,
    })
    exact &&= quote.exact
    amount = quote.amountOut
  }
  const gas = routeGas(
    priced.map((hop) => ({ protocol: hop.pool.protocol, ticksCrossed: hop.ticksCrossed })),
    units,
  )
  return { hops: priced, amountIn, amountOut: amount, gas, exact }
}

/**
 * A split priced exactly: its routes in order on one copy of the pools' state (`states`, fresh
 * unless given), each from its own input. Routes of no input are left out.
 */
export function priceSplit(
  legs: readonly Leg[],
  units: RouteGasUnits,
  gasPrice: GasPriceInToken1,
  states: PoolStates = new Map(),
): PricedSplit {
  const routes = legs
    .filter((leg) => leg.amountIn > 0n)
    .map((leg) => priceRoute(leg.hops, leg.amountIn, states, units))
  const amountIn = routes.reduce((sum, route) => sum + route.amountIn, 0n)
  const amountOut = routes.reduce((sum, route) => sum + route.amountOut, 0n)
  const gas = routes.reduce((sum, route) => sum + route.gas, units.swap)
  const gasCostToken1 = gasCost(gas, gasPrice)
  return {
    routes,
    amountIn,
    amountOut,
    gas,
    gasCostToken1,
    net: amountOut - gasCostToken1,
    exact: routes.every((route) => route.exact),
  }
}
