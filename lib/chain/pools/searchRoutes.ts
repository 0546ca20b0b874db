import type { Address } from 'viem'
import { depthInToken0, otherToken, type Pool, quotePool, sameToken } from './pool'

/** DECISIONS §8.1: paths of up to 3 hops (4 tokens). */
export const MAX_HOPS = 3
/** Splits over up to 4 routes in 5 % steps (20 parts). */
export const MAX_SPLIT_ROUTES = 4
export const SPLIT_PARTS = 20
/**
 * Pools kept per token pair, the deepest first: 5, every pool a pair can have (its V2 pair and
 * up to four V3 fee tiers), on paths of any length. Keeping only the 3 deepest (2 on 3-hop paths)
 * was tried: after a large trade moved one pool of a pair out of line with the others, the
 * devnet reference found routes through the shallow pool that paid up to 2.5x more (28 of 126
 * quotes on ethereum, 54 on altchain). With C connectors a quote weighs at most
 * 5 + 25C + 125C(C-1) paths; the connectors are bounded by the caller (bestRoute.ts).
 */
export const POOLS_PER_PAIR = 5
export const POOLS_PER_PAIR_ON_3_HOPS = 5
/** Routes tried per split size and step of the combination: the best few that fit beside it. */
export const ROUTES_KEPT_PER_SIZE = 6

/** Gas units the router spends (SwapRouter02 multicall; mainnet receipts, rounded up). */
export interface GasModel {
  /** Once per transaction: 21,000 intrinsic, the multicall, the input's transfer in. */
  transaction: bigint
  /** Once per route of a split: its leg of the multicall. */
  route: bigint
  v2Hop: bigint
  v3Hop: bigint
  /** Per initialized tick a V3 hop crosses. */
  tickCrossed: bigint
}

export const DEFAULT_GAS_MODEL: GasModel = {
  transaction: 60_000n,
  route: 20_000n,
  v2Hop: 60_000n,
  v3Hop: 80_000n,
  tickCrossed: 25_000n,
}

/** Token1 base units one gas unit costs, as a fraction (gas price × native's price in token1). */
export interface GasPriceInToken1 {
  numerator: bigint
  denominator: bigint
}

export interface Hop {
  pool: Pool
  tokenIn: Address
  tokenOut: Address
}

export interface HopQuote extends Hop {
  amountIn: bigint
  amountOut: bigint
  ticksCrossed: number
}

export interface RouteQuote {
  hops: HopQuote[]
  amountIn: bigint
  amountOut: bigint
  /** Units: the route's leg and hops, without the transaction's own. */
  gas: bigint
  complete: boolean
  /** Every hop priced on ticks that were read (else an estimate the simulation settles). */
  exact: boolean
}

/** Pools between two tokens, the deepest `limit` first. */
function poolsBetween(pools: readonly Pool[], a: Address, b: Address, limit: number): Pool[] {
  return pools
    .filter((pool) => {
      const other = otherToken(pool, a)
      return other !== undefined && sameToken(other, b)
    })
    .sort((x, y) => {
      const dx = depthInToken0(x)
      const dy = depthInToken0(y)
      return dx === dy ? 0 : dx > dy ? -1 : 1
    })
    .slice(0, limit)
}

export interface CandidateRoutesParameters {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  /** The intermediate tokens allowed (bounded by the caller). */
  connectors: readonly Address[]
}

/**
 * Every simple path of up to MAX_HOPS hops from tokenIn to tokenOut whose intermediate tokens
 * are connectors, each hop any of the deepest pools of its pair (mixed V2/V3 hops).
 */
export function candidateRoutes({
  pools,
  tokenIn,
  tokenOut,
  connectors,
}: CandidateRoutesParameters): Hop[][] {
  const between = connectors.filter(
    (token, index) =>
      !sameToken(token, tokenIn) &&
      !sameToken(token, tokenOut) &&
      connectors.findIndex((other) => sameToken(other, token)) === index,
  )
  const routes: Hop[][] = []
  const expand = (tokens: Address[], limit: number) => {
    let partial: Hop[][] = [[]]
    for (let index = 0; index + 1 < tokens.length; index += 1) {
      const [from, to] = [tokens[index], tokens[index + 1]] as [Address, Address]
      const choices = poolsBetween(pools, from, to, limit)
      partial = partial.flatMap((route) =>
        choices.map((pool) => [...route, { pool, tokenIn: from, tokenOut: to }]),
      )
    }
    routes.push(...partial.filter((route) => route.length === tokens.length - 1))
  }
  expand([tokenIn, tokenOut], POOLS_PER_PAIR)
  for (const first of between) expand([tokenIn, first, tokenOut], POOLS_PER_PAIR)
  if (MAX_HOPS >= 3) {
    for (const first of between) {
      for (const second of between) {
        if (!sameToken(first, second)) {
          expand([tokenIn, first, second, tokenOut], POOLS_PER_PAIR_ON_3_HOPS)
        }
      }
    }
  }
  return routes
}

/** A route's exact output for `amountIn` by the pools' state, hop after hop. */
export function quoteRoute(
  route: readonly Hop[],
  amountIn: bigint,
  gasModel: GasModel,
): RouteQuote {
  const hops: HopQuote[] = []
  let amount = amountIn
  let gas = gasModel.route
  let complete = true
  let exact = true
  for (const hop of route) {
    const quote = quotePool(hop.pool, hop.tokenIn, amount)
    hops.push({
      ...hop,
      amountIn: amount,
      amountOut: quote.amountOut,
      ticksCrossed: quote.ticksCrossed,
    })
    gas +=
      hop.pool.protocol === 'v2'
        ? gasModel.v2Hop
        : gasModel.v3Hop + gasModel.tickCrossed * BigInt(quote.ticksCrossed)
    complete &&= quote.complete
    exact &&= quote.exact
    amount = quote.amountOut
  }
  return { hops, amountIn, amountOut: amount, gas, complete, exact }
}

export interface Split {
  /** Routes with their share of the input (parts of SPLIT_PARTS), largest first. */
  routes: (RouteQuote & { parts: number })[]
  amountOut: bigint
  /** Units, the transaction's included. */
  gas: bigint
  gasCostToken1: bigint
  /** amountOut − gasCostToken1: what the search maximises. */
  net: bigint
}

const gasCost = (gas: bigint, price: GasPriceInToken1) =>
  price.denominator === 0n ? 0n : (gas * price.numerator) / price.denominator

const usesNoPoolOf = (route: readonly Hop[], pools: ReadonlySet<string>) =>
  route.every((hop) => !pools.has(hop.pool.address.toLowerCase()))

/** The input of each part of a split: `parts`/20 of it, the first (largest) taking the rest. */
export function splitAmounts(amountIn: bigint, parts: readonly number[]): bigint[] {
  const amounts = parts.map((part) => (amountIn * BigInt(part)) / BigInt(SPLIT_PARTS))
  const rest = amountIn - amounts.reduce((sum, amount) => sum + amount, 0n)
  if (amounts.length > 0) amounts[0] = (amounts[0] ?? 0n) + rest
  return amounts
}

export interface BestSplitParameters extends CandidateRoutesParameters {
  amountIn: bigint
  gasModel?: GasModel
  gasPrice: GasPriceInToken1
  /** Routes a split may use, at most (MAX_SPLIT_ROUTES; 1: the best single route). */
  maxRoutes?: number
}

/**
 * The split of `amountIn` over up to 4 routes sharing no pool, in 5 % steps, that maximises
 * what arrives net of gas (the classic approach): every candidate route priced at 5 %…100 %,
 * at each step of a combination the best ROUTES_KEPT_PER_SIZE routes of each size that share no
 * pool with those chosen tried, the winner priced again exactly (the largest share takes the rounding remainder).
 * Undefined when no route pays anything.
 */
export function bestSplit(parameters: BestSplitParameters): Split | undefined {
  const { amountIn, gasPrice } = parameters
  const gasModel = parameters.gasModel ?? DEFAULT_GAS_MODEL
  const maxRoutes = Math.min(parameters.maxRoutes ?? MAX_SPLIT_ROUTES, MAX_SPLIT_ROUTES)
  if (amountIn <= 0n) return undefined
  const routes = candidateRoutes(parameters)
  // table[k - 1][r]: route r with k parts of the input.
  const table = Array.from({ length: SPLIT_PARTS }, (_, index) =>
    routes.map((route, routeIndex) => {
      const quote = quoteRoute(
        route,
        (amountIn * BigInt(index + 1)) / BigInt(SPLIT_PARTS),
        gasModel,
      )
      return { routeIndex, quote, net: quote.amountOut - gasCost(quote.gas, gasPrice) }
    }),
  )
  // Every route that pays, best first; the search below tries the first ROUTES_KEPT_PER_SIZE
  // that fit beside the routes already chosen (a fixed top list would be all variants of the same
  // pools once connectors add routes, and leave no disjoint route to split over).
  const ranked = table.map((row) =>
    row
      .filter((entry) => entry.quote.amountOut > 0n)
      .sort((a, b) => (a.net === b.net ? 0 : a.net > b.net ? -1 : 1)),
  )
  let best: { entries: { routeIndex: number; parts: number }[]; net: bigint } | undefined
  const search = (
    partsLeft: number,
    maxParts: number,
    chosen: { routeIndex: number; parts: number }[],
    pools: ReadonlySet<string>,
    net: bigint,
  ) => {
    if (partsLeft === 0) {
      if (!best || net > best.net) best = { entries: chosen, net }
      return
    }
    if (chosen.length === maxRoutes) return
    // Parts in non-increasing order, so each combination is tried once.
    for (let parts = Math.min(partsLeft, maxParts); parts >= 1; parts -= 1) {
      if (chosen.length === maxRoutes - 1 && parts !== partsLeft) continue
      let tried = 0
      for (const entry of ranked[parts - 1] ?? []) {
        if (tried === ROUTES_KEPT_PER_SIZE) break
        const route = routes[entry.routeIndex] ?? []
        if (chosen.some((other) => other.routeIndex === entry.routeIndex)) continue
        if (!usesNoPoolOf(route, pools)) continue
        tried += 1
        const next = new Set(pools)
        for (const hop of route) next.add(hop.pool.address.toLowerCase())
        search(
          partsLeft - parts,
          parts,
          [...chosen, { routeIndex: entry.routeIndex, parts }],
          next,
          net + entry.net,
        )
      }
    }
  }
  search(SPLIT_PARTS, SPLIT_PARTS, [], new Set(), 0n)
  if (!best) return undefined
  const amounts = splitAmounts(
    amountIn,
    best.entries.map((entry) => entry.parts),
  )
  const priced = best.entries.map((entry, index) => ({
    ...quoteRoute(routes[entry.routeIndex] ?? [], amounts[index] ?? 0n, gasModel),
    parts: entry.parts,
  }))
  const amountOut = priced.reduce((sum, route) => sum + route.amountOut, 0n)
  const gas = priced.reduce((sum, route) => sum + route.gas, gasModel.transaction)
  const gasCostToken1 = gasCost(gas, gasPrice)
  return { routes: priced, amountOut, gas, gasCostToken1, net: amountOut - gasCostToken1 }
}
