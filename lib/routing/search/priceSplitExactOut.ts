import type { RouteGasUnits } from '../../config'
import { gasCost, type GasPriceInToken1, routeGas } from '../gas/gasModel'
import type { Hop } from '../paths/enumeratePaths'
import { swapPool } from '../pools/pool'
import { swapPoolExactOut } from '../pools/poolExactOut'
import {
  currentPool,
  poolKey,
  type PoolStates,
  type PricedHop,
  type PricedRoute,
  type PricedSplit,
} from './priceSplit'

// The exact quoter mirrored for exact output (DECISIONS §10.1): each route priced backwards from
// what its last hop must pay (the way SwapRouter02's exactOutput runs a path: the last pool
// first), routes in the order the router runs them on one copy of the pools' state.

/** A route and the output it must pay, as the exact-output search hands it over. */
export interface LegOut {
  hops: readonly Hop[]
  amountOut: bigint
}

/** A route priced for its output: `amountOut` what it pays (V2: payForward), `amountWanted` its share. */
export interface PricedRouteExactOut extends PricedRoute {
  amountWanted: bigint
  complete: boolean
}

/** A split priced for its outputs: the exact-input split's figures, and what it costs in token0. */
export interface PricedSplitExactOut extends PricedSplit {
  routes: PricedRouteExactOut[]
  /** False when a route cannot pay its output (the router would revert): not a quote. */
  complete: boolean
  /** Gas at the gas price in token0 (rounded down). */
  gasCostToken0: bigint
  /** amountIn + gasCostToken0: what the exact-output search minimises. */
  cost: bigint
}

/** One route priced to pay exactly `amountOut`, on `states`, which it updates. */
export function priceRouteExactOut(
  hops: readonly Hop[],
  amountOut: bigint,
  states: PoolStates,
  units: RouteGasUnits,
): PricedRouteExactOut {
  const priced: PricedHop[] = []
  let amount = amountOut
  let exact = true
  let complete = true
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index] as Hop
    const before = currentPool(states, hop.pool)
    const { quote, after } = swapPoolExactOut(before, hop.tokenIn, amount)
    states.set(poolKey(hop.pool), after)
    priced.unshift({
      ...hop,
      amountIn: quote.amountIn,
      amountOut: amount,
      ticksCrossed: quote.ticksCrossed,
      wordsCrossed: quote.wordsCrossed,
      exact: quote.exact,
      before,
      after,
    })
    exact &&= quote.exact
    complete &&= quote.complete
    if (!quote.complete) break
    amount = quote.amountIn
  }
  const gas = routeGas(
    priced.map((hop) => ({ protocol: hop.pool.protocol, ticksCrossed: hop.ticksCrossed })),
    units,
  )
  const paid = complete && isV2Route(priced) ? payForward(priced, amount, states) : amountOut
  return {
    hops: priced,
    amountIn: amount,
    amountOut: paid,
    amountWanted: amountOut,
    gas,
    exact,
    complete,
  }
}

const isV2Route = (hops: readonly PricedHop[]) =>
  hops.length > 0 && hops.every((hop) => hop.pool.protocol === 'v2')

/**
 * What a V2 route pays for the input its exact output takes: SwapRouter02's V2 hops (and the
 * devnet router's) pay each pair's getAmountOut of what reached it, not the amounts getAmountsIn
 * worked back from, so a route pays the amount asked or a little more (the pairs' rounding: up to
 * what one unit of the input buys). Hops and states set to those figures; the route's output.
 */
function payForward(hops: PricedHop[], amountIn: bigint, states: PoolStates): bigint {
  let amount = amountIn
  hops.forEach((hop, index) => {
    const { quote, after } = swapPool(hop.before, hop.tokenIn, amount)
    states.set(poolKey(hop.pool), after)
    hops[index] = { ...hop, amountIn: amount, amountOut: quote.amountOut, after }
    amount = quote.amountOut
  })
  return amount
}

/** A split priced exactly for its outputs; routes of no output are left out. */
export function priceSplitExactOut(
  legs: readonly LegOut[],
  units: RouteGasUnits,
  gasPrices: { token0: GasPriceInToken1; token1: GasPriceInToken1 },
  states: PoolStates = new Map(),
): PricedSplitExactOut {
  const routes = legs
    .filter((leg) => leg.amountOut > 0n)
    .map((leg) => priceRouteExactOut(leg.hops, leg.amountOut, states, units))
  const amountIn = routes.reduce((sum, route) => sum + route.amountIn, 0n)
  const amountOut = routes.reduce((sum, route) => sum + route.amountOut, 0n)
  const gas = routes.reduce((sum, route) => sum + route.gas, units.swap)
  const gasCostToken1 = gasCost(gas, gasPrices.token1)
  const gasCostToken0 = gasCost(gas, gasPrices.token0)
  return {
    routes,
    amountIn,
    amountOut,
    gas,
    gasCostToken1,
    net: amountOut - gasCostToken1,
    exact: routes.every((route) => route.exact),
    complete: routes.every((route) => route.complete),
    gasCostToken0,
    cost: amountIn + gasCostToken0,
  }
}
