import type { Address } from 'viem'
import type { RouteGasUnits } from '../../config'
import { MAX_SPLIT_ROUTES } from '../../constants'
import type { GasPriceInToken1 } from '../gas/gasModel'
import { enumeratePaths, type Hop } from '../paths/enumeratePaths'
import type { Pool } from '../pools/pool'
import { balance } from './balance'
import { type Discovered, discover, DISCOVERY_RULES } from './discover'
import { fastRoute } from './fastModel'
import { flowCandidates } from './flowCandidates'
import { improve } from './improve'
import type { PricedSplit } from './priceSplit'
import type { Candidate, SearchContext } from './searchContext'
import { splitMayPay } from './splitBounds'
import { SplitRanking } from './splitRanking'

/** Routes of the discovery kept for the elimination down to MAX_SPLIT_ROUTES, the most given first. */
const ELIMINATION_ROUTES = 8
/** Single routes priced exactly: the model's best few, so its rounding never decides alone. */
const SINGLES_PRICED = 3
/** Distinct route sets, the best priced first, that the local search (improve) starts from. */
const IMPROVE_STARTS = 2

export interface SearchSplitParameters {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  /** Tokens a route may pass through. */
  through: readonly Address[]
  amountIn: bigint
  units: RouteGasUnits
  gasPrice: GasPriceInToken1
  /** Routes a split may use, at most (MAX_SPLIT_ROUTES; 1: the best single route). */
  maxRoutes?: number
  /** Hops a route may take (default: any); V2 only where a token takes a transfer fee. */
  allowHop?: (hop: Hop) => boolean
  /** Paths a route may take (default: any); exact output: those the router runs exactly. */
  allowPath?: (path: readonly Hop[]) => boolean
}

/** One search: its figures, the candidates priced so far, and the sets balanced already. */
interface Search {
  context: SearchContext
  maxRoutes: number
  ranking: SplitRanking
  /** The paths of the best single routes (step 1), the model's best first. */
  singles: number[]
  /** Discovered sets balanced already (the same start: the same balance). */
  balanced: Set<string>
}

/**
 * The split of `amountIn` over up to `maxRoutes` routes that maximises what arrives net of gas
 * (DECISIONS §9.3). Each route's output is concave in its input, so the best split equalises the
 * routes' marginal outputs (water-filling; Angeris et al., "Optimal Routing for Constant
 * Function Market Makers"). Candidates are weighed on the fast model (fastModel.ts) and the
 * ones worth answering priced exactly (priceSplit), the best exact net winning:
 * 1. the best single route for the whole input over every path of enumeratePaths;
 * 2. unless no split could beat it (splitMayPay), a discovery hands out the input in
 *    DISCOVERY_PARTS equal parts, each to the route paying most for it net of any new route's
 *    gas on the pools as the earlier parts left them, so routes that share a pool are weighed
 *    together; beside those three (DISCOVERY_RULES), one with gas left out and one over routes
 *    that share no pool from each of the best singles;
 * 3. the routes it gave most, k = 2..maxRoutes of them, are balanced (balance); and the
 *    discovery's routes are narrowed down from ELIMINATION_ROUTES by dropping, after each
 *    balancing, the route given least, every set of at most maxRoutes a candidate;
 * 4. the best split is completed by the water-filling condition (complete);
 * 5. the best few are improved by a local search swapping a route for one left out (improve);
 * 6. pool-level candidates (flowCandidates, poolFlow.ts): the best set of maxRoutes among the
 *    paths that carry the pools' flows in a routing with no limit on routes, priced last (the
 *    answer never nets less than steps 1-5 alone) and completed if it wins.
 * Every candidate is priced in the router's order on one copy of the pools, so routes sharing a
 * pool are priced together. Undefined when no route pays anything.
 */
export function searchSplit(parameters: SearchSplitParameters): PricedSplit | undefined {
  return searchSplits(parameters, 0)?.best
}

/** searchSplit's answer and the search's runners-up (see searchSplits). */
export interface SearchedSplits {
  best: PricedSplit
  /** The distinct sets of several routes it priced, netting most first, the best's included. */
  runnersUp: PricedSplit[]
}

/**
 * searchSplit, and up to `runnersUp` of the splits over several routes it priced, netting most
 * first: the exact-output search re-balances them on its own figures, where a net rounded to the
 * output token's unit per route (a token of few decimals) can rank a split below a single route
 * that it beats once each route is given a whole number of units to pay.
 */
export function searchSplits(
  parameters: SearchSplitParameters,
  runnersUp: number,
): SearchedSplits | undefined {
  const search = startSearch(parameters)
  if (!search) return undefined
  const { context, maxRoutes, ranking } = search
  const { best, bestSet } = ranking
  if (!best || !bestSet) return undefined
  if (maxRoutes === 1 || !splitMayPay(context, best, bestSet.indexes[0] ?? -1)) {
    return { best, runnersUp: [] }
  }
  discoverSplits(search)
  discoverRaw(search)
  improveBest(search)
  routeFlows(search)
  const found = ranking.best ?? best
  return { best: found, runnersUp: runnersUp > 0 ? ranking.bestPricedSplits(runnersUp) : [] }
}

/**
 * The search's figures, and step 1: the best single route, the model's best few priced exactly.
 * Undefined when nothing is to be searched (no input, no path).
 */
function startSearch(parameters: SearchSplitParameters): Search | undefined {
  const { pools, tokenIn, tokenOut, through, amountIn, units, gasPrice } = parameters
  const maxRoutes = Math.max(
    1,
    Math.min(parameters.maxRoutes ?? MAX_SPLIT_ROUTES, MAX_SPLIT_ROUTES),
  )
  if (amountIn <= 0n) return undefined
  const paths = enumeratePaths({
    pools,
    tokenIn,
    tokenOut,
    through,
    ...(parameters.allowHop && { allowHop: parameters.allowHop }),
  }).filter((path) => parameters.allowPath?.(path) ?? true)
  if (paths.length === 0) return undefined
  const context: SearchContext = {
    paths,
    amountIn: Number(amountIn),
    units,
    gasPrice:
      gasPrice.denominator === 0n ? 0 : Number(gasPrice.numerator) / Number(gasPrice.denominator),
  }
  const ranking = new SplitRanking(context, { paths, amountIn, units, gasPrice }, maxRoutes)
  const singles = bestSingles(context)
  for (const index of singles) ranking.offerSingle(index)
  return { context, maxRoutes, ranking, singles, balanced: new Set() }
}

/** The SINGLES_PRICED paths netting most for the whole input on the model (paying anything). */
function bestSingles(context: SearchContext): number[] {
  return context.paths
    .map((path, index) => {
      const route = fastRoute(path, context.amountIn, new Map(), false, context.units)
      return { index, net: route.amountOut - route.gas * context.gasPrice, out: route.amountOut }
    })
    .filter((entry) => entry.out > 0)
    .sort((a, b) => b.net - a.net)
    .slice(0, SINGLES_PRICED)
    .map((entry) => entry.index)
}

/**
 * Steps 2-4: the discoveries (DISCOVERY_RULES) and the sets of routes they found, balanced; the
 * elimination from the routes an unbounded discovery gave most; the best completed.
 */
function discoverSplits(search: Search): void {
  const { context, maxRoutes, ranking } = search
  const candidates = [
    ...DISCOVERY_RULES.flatMap((rule) =>
      balanceFound(search, discover(context, rule, maxRoutes), true),
    ),
    ...eliminate(context, maxRoutes),
  ]
  for (const candidate of candidates) ranking.offer(candidate)
  ranking.completeBest()
}

/**
 * A discovery's sets balanced: the first 2, 3, … of its routes (`fewer`), or all of them; a set
 * another discovery found from the same start is balanced once.
 */
function balanceFound(search: Search, found: Discovered, fewer: boolean): Candidate[] {
  const sets: Candidate[] = []
  for (let count = fewer ? 2 : Math.max(2, found.length); count <= found.length; count += 1) {
    const key = found
      .slice(0, count)
      .map((entry) => `${entry.index}:${entry.amount}`)
      .join()
    if (search.balanced.has(key)) continue
    search.balanced.add(key)
    const indexes = found.slice(0, count).map((entry) => entry.index)
    const starts = found.slice(0, count).map((entry) => entry.amount)
    sets.push({ indexes, shares: balance(search.context, indexes, starts) })
  }
  return sets
}

/**
 * The routes an unbounded discovery gave most (ELIMINATION_ROUTES of them) narrowed down by
 * dropping, after each balancing, the route given least: every set of at most maxRoutes a
 * candidate. None where the discovery opened no more than maxRoutes.
 */
function eliminate(context: SearchContext, maxRoutes: number): Candidate[] {
  const given = discover(context, 'any', Number.POSITIVE_INFINITY)
  if (given.length <= maxRoutes) return []
  const candidates: Candidate[] = []
  let indexes = given.slice(0, ELIMINATION_ROUTES).map((entry) => entry.index)
  let shares = given.slice(0, ELIMINATION_ROUTES).map((entry) => entry.amount)
  while (indexes.length > 1) {
    shares = balance(context, indexes, shares)
    if (indexes.length <= maxRoutes) candidates.push({ indexes, shares })
    let least = 0
    shares.forEach((share, position) => {
      if (share < (shares[least] ?? 0)) least = position
    })
    indexes = indexes.filter((_, position) => position !== least)
    shares = shares.filter((_, position) => position !== least)
  }
  return candidates
}

/**
 * The discoveries the margin cannot stand for, after those above (so the answer never nets less
 * than theirs completed), the best completed again if they beat it: one with gas left out (a
 * route's gas charged to its first part alone keeps a pool as good as the one in use closed,
 * however much it would take: two pools of a pair, each for half) and the brute force's seeding
 * (tests/reference/bruteForce.ts), routes that share no pool from each best single (where a thin
 * pool's first part would close the deep ones).
 */
function discoverRaw(search: Search): void {
  const { context, maxRoutes, ranking } = search
  const completedBest = ranking.best
  const found = [
    discover(context, 'any', maxRoutes, { raw: true }),
    ...search.singles.map((index) =>
      discover(context, 'disjoint', maxRoutes, { raw: true, first: index }),
    ),
  ]
  for (const candidate of found.flatMap((each) => balanceFound(search, each, false))) {
    ranking.offer(candidate)
  }
  if (ranking.best !== completedBest) ranking.completeBest()
}

/**
 * Step 5: the best few splits improved by swaps of a route for one left out (improve): what the
 * margin cannot show (a route set two or three moves away, a deeper pool of a dearer tier).
 */
function improveBest({ context, ranking }: Search): void {
  for (const start of ranking.bestSplits(IMPROVE_STARTS)) {
    const improved = improve(context, start)
    if (improved) ranking.offer(improved)
  }
}

/**
 * Step 6: pool-level routing (flowCandidates): the route set among the paths that carry the
 * pools' flows in an unlimited routing, however many swaps away from the sets above; last, so
 * the answer never nets less than the search above alone, and completed if it wins.
 */
function routeFlows({ context, maxRoutes, ranking }: Search): void {
  const searched = ranking.best
  for (const candidate of flowCandidates(context, maxRoutes)) ranking.offer(candidate)
  if (ranking.best !== searched) ranking.completeBest()
}
