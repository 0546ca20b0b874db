import type { Address } from 'viem'
import { MAX_SPLIT_ROUTES } from '../../constants'
import type { Pool } from '../pools/pool'
import type { RouteGasUnits } from '../../config'
import { fastMarginal, fastRoute, fastSpotRate, type FastStates } from './fastModel'
import type { GasPriceInToken1 } from '../gas/gasModel'
import { enumeratePaths, type Hop } from '../paths/enumeratePaths'
import { decomposeFlows, subsetsOf, unlimitedFlows } from './poolFlow'
import { type PricedSplit, priceSplit } from './priceSplit'

/**
 * Equal parts of the input the discovery hands out one at a time, each to the route that pays
 * most for it where the earlier parts left the pools (the 5 % grid of §8.1, as a floor); the
 * routes it picks are then balanced (balance).
 */
export const DISCOVERY_PARTS = 20
/** Bisections of pathSurplus: its bracket is then the input over 2^24. */
const SURPLUS_BISECTIONS = 24
/** Routes of the discovery kept for the elimination down to MAX_SPLIT_ROUTES, the most given first. */
const ELIMINATION_ROUTES = 8
/** Single routes priced exactly: the model's best few, so its rounding never decides alone. */
const SINGLES_PRICED = 3
/**
 * The balancing stops once the routes' marginal outputs agree within this fraction (0.1 bps):
 * what is left to gain is smaller still (second order in the step).
 */
const MARGINAL_SPREAD = 1e-5
/** Moves tried at most while balancing one set of routes. */
const BALANCE_STEPS = 80
/**
 * Rounds of completion (complete) on the best split found: each opens the unused route paying
 * most at the margin where the split left the pools, beside the split's routes or in place of
 * one, and balances again.
 */
const COMPLETION_ROUNDS = 4
/** Routes left out a completion round tries opening, those paying most at the margin first. */
const COMPLETION_OPENINGS = 3
/** Distinct route sets, the best priced first, that the local search (improve) starts from. */
const IMPROVE_STARTS = 2
/** Rounds of swaps a local search makes at most. */
const SWAP_ROUNDS = 3
/**
 * Swaps a round balances: those netting most before balancing (cheap, a split's worth of the
 * model each), since balancing (some hundred of the model's route walks) is what costs.
 */
const SWAPS_BALANCED = 4

/** Parts of the input the unlimited routing of poolFlow.ts hands out (2 % each). */
const FLOW_PARTS = 25
/** Paths the pools' flows are decomposed into: every set of maxRoutes of them is weighed. */
const FLOW_PATHS = 6
/** Moves a set of the decomposition's paths is balanced with before the sets are ranked. */
const FLOW_QUICK_STEPS = 12
/** Sets of the decomposition's paths balanced in full and priced, the best ranked first. */
const FLOW_BALANCED = 1

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
}

/** The search's working figures: the fast model's, in floats (fastModel.ts). */
interface Context {
  paths: readonly Hop[][]
  amountIn: number
  units: RouteGasUnits
  /** Token1 per gas unit. */
  gasPrice: number
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
  })
  if (paths.length === 0) return undefined
  const context: Context = {
    paths,
    amountIn: Number(amountIn),
    units,
    gasPrice:
      gasPrice.denominator === 0n ? 0 : Number(gasPrice.numerator) / Number(gasPrice.denominator),
  }
  const exact = (indexes: readonly number[], shares: readonly number[]) => {
    const amounts = amountsOf(amountIn, shares)
    return priceSplit(
      indexes.map((index, position) => ({
        hops: paths[index] ?? [],
        amountIn: amounts[position] ?? 0n,
      })),
      units,
      gasPrice,
    )
  }
  // 1. The best single route, the model's best few priced exactly.
  const singles = paths
    .map((path, index) => {
      const route = fastRoute(path, context.amountIn, new Map(), false, units)
      return { index, net: route.amountOut - route.gas * context.gasPrice, out: route.amountOut }
    })
    .filter((entry) => entry.out > 0)
    .sort((a, b) => b.net - a.net)
    .slice(0, SINGLES_PRICED)
  let best: PricedSplit | undefined
  let bestSet: Candidate | undefined
  for (const { index } of singles) {
    const priced = exact([index], [1])
    if (priced.amountOut > 0n && (!best || priced.net > best.net)) {
      best = priced
      bestSet = { indexes: [index], shares: [context.amountIn] }
    }
  }
  if (!best || !bestSet) return undefined
  if (maxRoutes === 1 || !splitMayPay(context, best, bestSet.indexes[0] ?? -1)) return best

  // 2. The discoveries; 3. the sets of routes they found, balanced.
  const balanced = new Set<string>()
  /** A discovery's sets balanced: the first 2, 3, … of its routes (`fewer`), or all of them. */
  const balanceFound = (found: readonly { index: number; amount: number }[], fewer: boolean) => {
    const sets: Candidate[] = []
    for (let count = fewer ? 2 : Math.max(2, found.length); count <= found.length; count += 1) {
      // Discoveries often agree: a set balanced once (the same start: the same balance).
      const key = found
        .slice(0, count)
        .map((entry) => `${entry.index}:${entry.amount}`)
        .join()
      if (balanced.has(key)) continue
      balanced.add(key)
      const indexes = found.slice(0, count).map((entry) => entry.index)
      const starts = found.slice(0, count).map((entry) => entry.amount)
      sets.push({ indexes, shares: balance(context, indexes, starts) })
    }
    return sets
  }
  const candidates: Candidate[] = [
    ...DISCOVERY_RULES.flatMap((rule) => balanceFound(discover(context, rule, maxRoutes), true)),
  ]
  const given = discover(context, 'any', Number.POSITIVE_INFINITY)
  if (given.length > maxRoutes) {
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
  }
  const pricedSets: { candidate: Candidate; net: bigint }[] = []
  const priceCandidate = (candidate: Candidate) => {
    const indexes = candidate.indexes.filter((_, position) => (candidate.shares[position] ?? 0) > 0)
    const shares = candidate.shares.filter((share) => share > 0)
    if (indexes.length === 0) return
    const priced = exact(indexes, shares)
    pricedSets.push({ candidate: { indexes, shares }, net: priced.net })
    if (best && priced.net <= best.net) return
    best = priced
    bestSet = { indexes, shares }
  }
  // 4. The best split completed: a route it left out that pays more at the margin than its own
  // routes opened (the discoveries hand out 5 % parts, too coarse for a thin pool worth 1 %).
  const completeBest = () => {
    for (let round = 0; round < COMPLETION_ROUNDS && bestSet; round += 1) {
      const completed = complete(context, bestSet, maxRoutes)
      if (!completed) break
      const before: PricedSplit | undefined = best
      priceCandidate(completed)
      if (best === before) break
    }
  }
  for (const candidate of candidates) priceCandidate(candidate)
  completeBest()
  // The discoveries the margin cannot stand for, after those (so the answer never nets less
  // than theirs completed), the best completed again if they beat it: one with gas left out (a
  // route's gas charged to its first part alone keeps a pool as good as the one in use closed,
  // however much it would take: two pools of a pair, each for half) and the brute force's
  // seeding (tests/reference/bruteForce.ts), routes that share no pool from each best single
  // (where a thin pool's first part would close the deep ones).
  const completedBest = best
  const more = [
    discover(context, 'any', maxRoutes, { raw: true }),
    ...singles.map(({ index }) =>
      discover(context, 'disjoint', maxRoutes, { raw: true, first: index }),
    ),
  ].flatMap((found) => balanceFound(found, false))
  for (const candidate of more) priceCandidate(candidate)
  if (best !== completedBest) completeBest()
  // 5. The best few splits improved by swaps of a route for one left out (improve): what the
  // margin cannot show (a route set two or three moves away, a deeper pool of a dearer tier).
  const starts = pricedSets
    .filter((entry) => entry.candidate.indexes.length > 1)
    .sort((a, b) => (a.net === b.net ? 0 : a.net > b.net ? -1 : 1))
  const seen = new Set<string>()
  let started = 0
  for (const { candidate } of starts) {
    const key = [...candidate.indexes].sort((a, b) => a - b).join()
    if (seen.has(key)) continue
    seen.add(key)
    const improved = improve(context, candidate)
    if (improved) priceCandidate(improved)
    started += 1
    if (started >= IMPROVE_STARTS) break
  }
  // 6. Pool-level routing (flowCandidates): the route set among the paths that carry the pools'
  // flows in an unlimited routing, however many swaps away from the sets above; last, so the
  // answer never nets less than the search above alone, and completed if it wins.
  const searched = best
  for (const candidate of flowCandidates(context, maxRoutes)) priceCandidate(candidate)
  if (best !== searched) completeBest()
  return best
}

/**
 * Candidates from pool-level routing (poolFlow.ts): the input routed with no limit on routes,
 * the pools' flows decomposed into FLOW_PATHS paths, every set of `maxRoutes` of them (or all, if
 * fewer) balanced briefly from the decomposition's amounts, and the FLOW_BALANCED netting most
 * on the model balanced in full.
 */
function flowCandidates(context: Context, maxRoutes: number): Candidate[] {
  const { paths, amountIn, units } = context
  const found = decomposeFlows(
    paths,
    unlimitedFlows(paths, amountIn, FLOW_PARTS, units),
    amountIn,
    FLOW_PATHS,
  )
  if (found.length < 2) return []
  const quick = subsetsOf(found.length, Math.min(maxRoutes, found.length))
    .map((positions) => {
      const indexes = positions.map((position) => found[position]?.index ?? -1)
      const starts = positions.map((position) => found[position]?.amount ?? 0)
      const shares = balance(context, indexes, starts, {
        steps: FLOW_QUICK_STEPS,
        step: amountIn / 100,
      })
      return { indexes, shares, net: modelNet(context, indexes, shares) }
    })
    .sort((a, b) => b.net - a.net)
  return quick
    .slice(0, FLOW_BALANCED)
    .map(({ indexes, shares }) => ({ indexes, shares: balance(context, indexes, shares) }))
}

/** A split's net of gas on the model, its routes in order on one copy of the pools. */
function modelNet(context: Context, indexes: readonly number[], shares: readonly number[]): number {
  const states: FastStates = new Map()
  let net = 0
  for (let position = 0; position < shares.length; position += 1) {
    const amount = shares[position] ?? 0
    if (amount <= 0) continue
    const path = context.paths[indexes[position] ?? -1] ?? []
    const route = fastRoute(path, amount, states, true, context.units)
    net += route.amountOut - route.gas * context.gasPrice
  }
  return net
}

/**
 * A local search from `start` on the model: a move gives one route's whole input to a path the
 * split leaves out (the brute force's climb, tests/reference/bruteForce.ts); each round the
 * SWAPS_BALANCED moves netting most are balanced and the best kept if it nets more than the
 * split before. Reaches what the margin cannot: a large leg's pool for a deeper one of a dearer
 * fee tier (which pays less for a first unit, more for the leg), a route set two swaps away.
 * Undefined when no move gains.
 */
function improve(context: Context, start: Candidate): Candidate | undefined {
  const { paths } = context
  let current = start
  let currentNet = modelNet(context, start.indexes, start.shares)
  let improved = false
  for (let round = 0; round < SWAP_ROUNDS; round += 1) {
    const moves: { indexes: number[]; net: number }[] = []
    current.indexes.forEach((_, replaced) => {
      paths.forEach((_, index) => {
        if (current.indexes.includes(index)) return
        const indexes = current.indexes.map((kept, position) =>
          position === replaced ? index : kept,
        )
        moves.push({ indexes, net: modelNet(context, indexes, current.shares) })
      })
    })
    moves.sort((a, b) => b.net - a.net)
    let chosen: { candidate: Candidate; net: number } | undefined
    for (const move of moves.slice(0, SWAPS_BALANCED)) {
      const shares = balance(context, move.indexes, current.shares)
      const net = modelNet(context, move.indexes, shares)
      if (!chosen || net > chosen.net)
        chosen = { candidate: { indexes: move.indexes, shares }, net }
    }
    if (!chosen || chosen.net <= currentNet) break
    current = chosen.candidate
    currentNet = chosen.net
    improved = true
  }
  return improved ? current : undefined
}

/** A set of paths (indexes into the context's) and each one's input, in the model's figures. */
interface Candidate {
  indexes: number[]
  shares: number[]
}

/**
 * The water-filling condition checked on a balanced split: at the best split no route left out
 * pays more for a next unit than the routes in use. Where some do (on the model, at the pools as
 * the whole split leaves them), each of the COMPLETION_OPENINGS paying most is opened beside them
 * (fewer than `maxRoutes`) or in place of each in turn, and each set balanced again; the set
 * netting most on the model is returned. Undefined when no route left out pays more at the
 * margin.
 */
function complete(context: Context, start: Candidate, maxRoutes: number): Candidate | undefined {
  const { paths, units, gasPrice } = context
  const states: FastStates = new Map()
  start.indexes.forEach((index, position) => {
    fastRoute(paths[index] ?? [], start.shares[position] ?? 0, states, true, units)
  })
  const lowest = Math.min(...start.indexes.map((index) => fastMarginal(paths[index] ?? [], states)))
  const threshold = lowest * (1 + MARGINAL_SPREAD)
  const opened = paths
    .map((path, index) => ({ index, marginal: fastMarginal(path, states) }))
    .filter((entry) => !start.indexes.includes(entry.index) && entry.marginal > threshold)
    .sort((a, b) => b.marginal - a.marginal)
    .slice(0, COMPLETION_OPENINGS)
    .map((entry) => entry.index)
  if (opened.length === 0) return undefined
  const sets: Candidate[] = opened.flatMap((index): Candidate[] =>
    start.indexes.length < maxRoutes
      ? [{ indexes: [...start.indexes, index], shares: [...start.shares, 0] }]
      : start.indexes.map((_, replaced) => ({
          indexes: start.indexes.map((kept, position) => (position === replaced ? index : kept)),
          shares: [...start.shares],
        })),
  )
  let chosen: { candidate: Candidate; net: number } | undefined
  for (const set of sets) {
    const shares = balance(context, set.indexes, set.shares)
    const modelStates: FastStates = new Map()
    let net = 0
    shares.forEach((amount, position) => {
      if (amount <= 0) return
      const route = fastRoute(
        paths[set.indexes[position] ?? -1] ?? [],
        amount,
        modelStates,
        true,
        units,
      )
      net += route.amountOut - route.gas * gasPrice
    })
    if (!chosen || net > chosen.net) chosen = { candidate: { indexes: set.indexes, shares }, net }
  }
  return chosen?.candidate
}

/** Base units of `amountIn` in proportion to `shares` (floored; the largest takes the rest). */
function amountsOf(amountIn: bigint, shares: readonly number[]): bigint[] {
  const total = shares.reduce((sum, share) => sum + share, 0)
  if (total <= 0) return shares.map(() => 0n)
  const scale = 2 ** 40
  const amounts = shares.map(
    (share) => (amountIn * BigInt(Math.floor((share / total) * scale))) / BigInt(scale),
  )
  let largest = 0
  shares.forEach((share, position) => {
    if (share > (shares[largest] ?? 0)) largest = position
  })
  amounts[largest] =
    (amounts[largest] ?? 0n) + amountIn - amounts.reduce((sum, amount) => sum + amount, 0n)
  return amounts
}

/**
 * Whether any split could beat `single` (over the path `singleIndex`), on the model: a split
 * costs at least a second route's gas (its leg and a hop) beyond the single's, and must add more
 * than 0.1 bps (within the comparison's tolerance, not worth the search). What it could add is
 * bounded twice, the lesser bound counting:
 * - every route pays at most its first-unit rate for each unit, so no split pays more than the
 *   input at the best such rate;
 * - each route's output f(x) is concave in its input, so for any rate λ a split of the input X
 *   pays at most λ·X + Σ max_x (f(x) − λ·x) over the paths (Lagrange); at λ the single's own
 *   marginal output at X its term is its output less λ·X, and a path whose first unit pays at most
 *   λ adds nothing: the bound is the single's output plus what the other paths could make
 *   selling at λ (pathSurplus). Each path is taken from the pools as read, as if no other route
 *   used them (a route after another through a pool meets a worse price, so that is an upper
 *   bound too).
 */
function splitMayPay(context: Context, single: PricedSplit, singleIndex: number): boolean {
  const { units, paths, amountIn } = context
  const out = Number(single.amountOut)
  const cheapestHop = units.v2Hop < units.v3Hop ? units.v2Hop : units.v3Hop
  const secondRoute =
    Number(2n * (units.route + cheapestHop)) * context.gasPrice - Number(single.gasCostToken1)
  const threshold = Math.max(secondRoute, out * 1e-5)
  const rates = paths.map((path) =>
    path.reduce((product, hop) => product * fastSpotRate(hop.pool, hop.tokenIn), 1),
  )
  if (amountIn * Math.max(...rates) - out <= threshold) return false
  const singlePath = paths[singleIndex]
  if (!singlePath) return true
  const states: FastStates = new Map()
  const { amountOut: modelOut, marginal } = fastRoute(singlePath, amountIn, states, false, units)
  // The model's output for the single, not the exact one: the bound is the model's.
  let surplus = 0
  paths.forEach((path, index) => {
    if (index === singleIndex || (rates[index] ?? 0) <= marginal) return
    surplus += pathSurplus(context, path, marginal)
  })
  return modelOut + surplus - out > threshold
}

/**
 * An upper bound of max over x in [0, amountIn] of f(x) − λ·x, f the path's output on the model
 * from the pools as read: f is concave, so the maximum is where its marginal output falls to λ,
 * found by bisection; at the bracket [low, high] it is at most h(low) + (f'(low) − λ)(high − low).
 */
function pathSurplus(context: Context, path: readonly Hop[], rate: number): number {
  const { amountIn, units } = context
  const at = (x: number) => fastRoute(path, x, new Map(), false, units)
  const whole = at(amountIn)
  if (whole.marginal >= rate) return whole.amountOut - rate * amountIn
  let low = 0
  let high = amountIn
  let lowFigures = { amountOut: 0, marginal: fastMarginal(path, new Map()) }
  for (let step = 0; step < SURPLUS_BISECTIONS; step += 1) {
    const middle = (low + high) / 2
    const figures = at(middle)
    if (figures.marginal >= rate) {
      low = middle
      lowFigures = figures
    } else {
      high = middle
    }
  }
  return lowFigures.amountOut - rate * low + (lowFigures.marginal - rate) * (high - low)
}

/**
 * Which new routes a discovery may open beside those it has: any; or only one that shares no
 * pool with them on its first hop (where an order too large for the input token's pools is
 * best spread over all of them), or on its last (the output token's pools); or only one that
 * shares no pool with them at all (the brute force's water-filling).
 */
type DiscoveryRule = 'any' | 'newFirstPool' | 'newLastPool' | 'disjoint'
const DISCOVERY_RULES: readonly DiscoveryRule[] = ['any', 'newFirstPool', 'newLastPool']

/**
 * A discovery (see searchSplit): the input in DISCOVERY_PARTS parts, each to the path that pays
 * most for it (net of its gas if it is new, unless `raw`: gas left out) on the pools as the
 * parts before left them; a new path only as `rule` allows and while fewer than `maxRoutes` are
 * open; the first part to `first` where given. The paths given anything with what they were
 * given, the most first.
 */
function discover(
  context: Context,
  rule: DiscoveryRule,
  maxRoutes: number,
  options: { raw?: boolean; first?: number } = {},
): { index: number; amount: number }[] {
  const { paths, units } = context
  const { first } = options
  const gasPrice = options.raw ? 0 : context.gasPrice
  const states: FastStates = new Map()
  const part = context.amountIn / DISCOVERY_PARTS
  const given = new Map<number, number>()
  const opened = (index: number) => {
    if (given.has(index)) return true
    if (given.size >= maxRoutes) return false
    if (rule === 'any') return true
    const path = paths[index] ?? []
    if (rule === 'disjoint') {
      return ![...given.keys()].some((other) =>
        (paths[other] ?? []).some((hop) => path.some((mine) => mine.pool === hop.pool)),
      )
    }
    const end = (route: readonly Hop[]) =>
      rule === 'newFirstPool' ? route[0] : route[route.length - 1]
    const pool = end(path)?.pool
    return ![...given.keys()].some((other) => end(paths[other] ?? [])?.pool === pool)
  }
  for (let handed = 0; handed < DISCOVERY_PARTS; handed += 1) {
    const forced = handed === 0 && first !== undefined
    let chosen = forced ? first : -1
    let chosenNet = 0
    paths.forEach((path, index) => {
      if (forced) return
      if (!opened(index)) return
      const route = fastRoute(path, part, states, false, units)
      if (route.amountOut <= 0) return
      const net = given.has(index) ? route.amountOut : route.amountOut - route.gas * gasPrice
      if (chosen < 0 || net > chosenNet) {
        chosen = index
        chosenNet = net
      }
    })
    const path = paths[chosen]
    if (!path) break
    fastRoute(path, part, states, true, units)
    given.set(chosen, (given.get(chosen) ?? 0) + part)
  }
  return [...given.entries()]
    .map(([index, amount]) => ({ index, amount }))
    .sort((a, b) => b.amount - a.amount || a.index - b.index)
}

/**
 * The input balanced between the paths `indexes` from `start` (shares of it), on the model: a
 * step moves input from the route whose next unit pays least (its marginal output where the
 * whole split left the pools, fastMarginal) to the one whose next unit pays most, kept when the split then pays
 * more net of gas, else the step halves. A route given nothing pays no gas. Stops when the
 * marginal outputs agree (MARGINAL_SPREAD), the step is below a unit in 2^20 of the input, or
 * after `steps` moves (BALANCE_STEPS; the first step a 40th of the input unless `step`).
 * Returns each route's input.
 */
function balance(
  context: Context,
  indexes: readonly number[],
  start: readonly number[],
  options: { steps?: number; step?: number } = {},
): number[] {
  const { paths, units, gasPrice } = context
  const total = start.reduce((sum, share) => sum + share, 0)
  let amounts = start.map((share) => (share / total) * context.amountIn)
  const routePaths = indexes.map((index) => paths[index] ?? [])
  const evaluate = (next: readonly number[]) => {
    const states: FastStates = new Map()
    let net = 0
    for (let position = 0; position < next.length; position += 1) {
      const amount = next[position] ?? 0
      const route = fastRoute(routePaths[position] ?? [], amount, states, true, units)
      if (amount > 0) net += route.amountOut - route.gas * gasPrice
    }
    const marginals = routePaths.map((path) => fastMarginal(path, states))
    return { net, marginals }
  }
  let current = evaluate(amounts)
  if (indexes.length < 2) return amounts
  let step = options.step ?? context.amountIn / (2 * DISCOVERY_PARTS)
  const smallest = context.amountIn / 2 ** 20
  const steps = options.steps ?? BALANCE_STEPS
  for (let tried = 0; tried < steps && step >= smallest; tried += 1) {
    let high = -1
    let low = -1
    current.marginals.forEach((marginal, position) => {
      if (high < 0 || marginal > (current.marginals[high] ?? 0)) high = position
      if ((amounts[position] ?? 0) > 0 && (low < 0 || marginal < (current.marginals[low] ?? 0))) {
        low = position
      }
    })
    const highest = current.marginals[high] ?? 0
    const lowest = current.marginals[low] ?? 0
    if (high < 0 || low < 0 || high === low || highest <= 0) break
    if ((highest - lowest) / highest < MARGINAL_SPREAD) break
    const moved = Math.min(amounts[low] ?? 0, step)
    const next = amounts.map((amount, position) =>
      position === low ? amount - moved : position === high ? amount + moved : amount,
    )
    const candidate = evaluate(next)
    if (candidate.net > current.net) {
      current = candidate
      amounts = next
    } else {
      step /= 2
    }
  }
  return amounts
}
