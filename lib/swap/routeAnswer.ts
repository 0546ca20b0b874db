import { type Address, getAddress } from 'viem'
import type { BestRoute } from '../routing/quote/bestRoute'

/** One hop of a quoted route (DECISIONS §8.1): amounts in base units, as decimal strings. */
export interface RouteHopAnswer {
  protocol: 'v2' | 'v3'
  pool: Address
  /** V3 only: the pool's fee tier (hundredths of a basis point). */
  fee?: number
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  amountOut: string
}

/** One route of a split and its share of the input. */
export interface RouteAnswer {
  /** Basis points of the input (10,000 in all). */
  shareBps: number
  hops: RouteHopAnswer[]
}

/** The §8.1 fields a quote or a prepare answer adds to the seed's. */
export interface BestRouteAnswer {
  /** What the recipient receives, exact: base units of token1 as a decimal string. */
  amountOut: string
  route: RouteAnswer[]
  priceImpactBps: number
  /** Gas units of the whole transaction, by the search's model. */
  gasEstimate: number
  /** That gas at the quoted gas price, in base units of token1 (decimal string), with `l1Fee`. */
  gasCostToken1: string
  /** An L2's L1 data fee of the transaction (part of `gasCostToken1`), in wei and in token1. */
  l1Fee?: { wei: string; token1: string }
  /** The contract the calldata calls. */
  to: Address
  /** The block whose state was quoted. */
  blockNumber: number
}

/**
 * The §8.1 answer of an engine quote: the routes in the order the router runs them, each hop's
 * amounts as simulated (they sum to amountOut, DECISIONS §9.3).
 */
export function describeBestRoute(best: BestRoute): BestRouteAnswer {
  return {
    amountOut: best.amountOut.toString(),
    route: best.routes.map((route) => ({
      shareBps: route.shareBps,
      hops: route.hops.map((hop) => ({
        protocol: hop.pool.protocol,
        pool: getAddress(hop.pool.address),
        ...(hop.pool.protocol === 'v3' && { fee: hop.pool.state.fee }),
        tokenIn: getAddress(hop.tokenIn),
        tokenOut: getAddress(hop.tokenOut),
        amountIn: hop.amountIn.toString(),
        amountOut: hop.amountOut.toString(),
      })),
    })),
    priceImpactBps: best.priceImpactBps,
    gasEstimate: Number(best.gas),
    gasCostToken1: best.gasCostToken1.toString(),
    ...(best.l1Fee && {
      l1Fee: { wei: best.l1Fee.wei.toString(), token1: best.l1Fee.token1.toString() },
    }),
    to: getAddress(best.router),
    blockNumber: Number(best.blockNumber),
  }
}

/** The seed's `path`: the tokens of the split's largest route (the first of the largest). */
export function largestRoutePath(best: BestRoute): Address[] {
  const largest = best.routes.reduce<BestRoute['routes'][number] | undefined>(
    (found, route) => (!found || route.amountIn > found.amountIn ? route : found),
    undefined,
  )
  const hops = largest?.hops ?? []
  const first = hops[0]
  return first ? [first.tokenIn, ...hops.map((hop) => hop.tokenOut)].map((a) => getAddress(a)) : []
}
