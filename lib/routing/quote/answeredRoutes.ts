import type { Hex } from 'viem'
import { segmentsOf } from '../../chain/swapRouterCall'
import type { Hop } from '../paths/enumeratePaths'
import { quotePool } from '../pools/pool'
import type { PricedSplit } from '../search/priceSplit'
import { type SimulatedSplit, swapCallOutput } from '../simulate/simulateSplit'

/** One hop of the answer: the pool and what went in and came out, as simulated. */
export interface AnsweredHop extends Hop {
  amountIn: bigint
  amountOut: bigint
}

/** One route of the answer's split, in the order the router runs them. */
export interface AnsweredRoute {
  amountIn: bigint
  /** Its share of the input in basis points (the shares sum to 10,000). */
  shareBps: number
  hops: AnsweredHop[]
}

/**
 * The routes of the answer: with a simulation, each router call's output from its result (a hop
 * inside a V2 call by the pair's math on the simulated input), each route's last hop scaled so
 * the routes sum to what arrived (a fee on the last transfer, the router's dust swept along);
 * without one, the exact local figures. Shares in basis points, summing to 10,000.
 */
export function answeredRoutes(split: PricedSplit, simulated?: SimulatedSplit): AnsweredRoute[] {
  let call = 0
  const routes = split.routes.map((route) => {
    const hops: AnsweredHop[] = []
    let amount = route.amountIn
    for (const segment of segmentsOf(
      route.hops.map((hop) => ({
        protocol: hop.pool.protocol,
        fee: hop.pool.protocol === 'v3' ? hop.pool.state.fee : 0,
        tokenIn: hop.tokenIn,
        tokenOut: hop.tokenOut,
      })),
    )) {
      const result: Hex | undefined = simulated?.results[call]
      call += 1
      const last = route.hops[segment.first + segment.hops.length - 1]
      const callOut = simulated ? (swapCallOutput(result) ?? 0n) : (last?.amountOut ?? 0n)
      segment.hops.forEach((_, offset) => {
        const hop = route.hops[segment.first + offset]
        if (!hop) return
        const isLast = offset === segment.hops.length - 1
        const amountOut = isLast
          ? callOut
          : simulated && amount !== hop.amountIn
            ? quotePool(hop.before, hop.tokenIn, amount).amountOut
            : hop.amountOut
        hops.push({
          pool: hop.pool,
          tokenIn: hop.tokenIn,
          tokenOut: hop.tokenOut,
          amountIn: amount,
          amountOut,
        })
        amount = amountOut
      })
    }
    return { amountIn: route.amountIn, hops }
  })
  if (simulated) scaleLastHops(routes, simulated.received)
  const shares = sharesBps(routes.map((route) => route.amountIn))
  return routes.map((route, index) => ({ ...route, shareBps: shares[index] ?? 0 }))
}

/** Each route's last hop set to its share of `received`, by what the routes' pools paid. */
function scaleLastHops(routes: { hops: AnsweredHop[] }[], received: bigint): void {
  const paid = routes.map((route) => route.hops[route.hops.length - 1]?.amountOut ?? 0n)
  const total = paid.reduce((sum, amount) => sum + amount, 0n)
  if (total === received || total === 0n) return
  const scaled = paid.map((amount) => (amount * received) / total)
  scaled[0] = (scaled[0] ?? 0n) + received - scaled.reduce((sum, amount) => sum + amount, 0n)
  routes.forEach((route, index) => {
    const last = route.hops[route.hops.length - 1]
    if (last) last.amountOut = scaled[index] ?? 0n
  })
}

/** Basis points of the whole for each amount, by largest remainder, each at least 1. */
function sharesBps(amounts: readonly bigint[]): number[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0n)
  if (total === 0n) return amounts.map(() => 0)
  const floors = amounts.map((amount) => (amount * 10_000n) / total)
  const shares = floors.map((floor) => Number(floor))
  let left = 10_000 - shares.reduce((sum, share) => sum + share, 0)
  const byRemainder = amounts
    .map((amount, index) => ({ index, remainder: (amount * 10_000n) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? 0 : a.remainder > b.remainder ? -1 : 1))
  for (const { index } of byRemainder) {
    if (left <= 0) break
    shares[index] = (shares[index] ?? 0) + 1
    left -= 1
  }
  // A route too small for a basis point still shows one, taken from the largest.
  shares.forEach((share, index) => {
    if (share > 0) return
    const largest = shares.indexOf(Math.max(...shares))
    shares[largest] = (shares[largest] ?? 0) - 1
    shares[index] = 1
  })
  return shares
}
