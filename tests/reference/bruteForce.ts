import { type GasPrice, type GasUnits, gasCost, splitGas } from './gasModel'
import type { Market, Path } from './poolTypes'
import {
  type Delivered,
  type Leg,
  type SplitOutcome,
  simulateLegsFast,
  simulateLegsSdk,
} from './simulateLegs'

// The brute force of issue 33 (DECISIONS §9.3). Every path of up to 3 hops is priced alone.
// Splits of up to 4 routes come from four searches over the best few routes: water-filling in
// 1 % steps over routes that share no pool (greedy by marginal output, optimal for such concave
// routes), a 5 % grid over every 2-4 of them (the floor §8.1 names), a greedy in 5 % steps whose
// every step is priced exactly (so routes sharing a pool see each other), and a climb in 1 %
// moves from the best found. Every candidate is priced as the router runs it: its legs in
// sequence on one copy of the pools. The best net of gas and the best by output alone are priced
// again by the Uniswap SDKs, which must agree to the unit.

/** Splits use at most this many routes (§9.3). */
export const MAX_ROUTES = 4
/** The allocation's unit: 1 % of the input. */
const PARTS = 100
/** The grid's unit and the exact greedy's step: 5 % of the input. */
const COARSE_STEP = 5
/**
 * Routes the exact searches consider: those the water-filling chose, then the best few alone at
 * several sizes.
 */
const CANDIDATES_PER_SIZE = 5
const SIZES_FOR_CANDIDATES = [100, 50, 25, 10, 5, 1] as const
const MAX_CANDIDATES = 14
/** Routes the 5 % grid combines. */
const GRID_ROUTES = 6
/** Grid divisions priced exactly, by output and by net. */
const GRID_KEPT = 3
/** Moves a climb makes at most, and the best splits it starts from. */
const CLIMB_STEPS = 40
const CLIMB_STARTS = 3

export interface ReferenceQuery {
  market: Market
  paths: readonly Path[]
  amountIn: bigint
  delivered: Delivered
  units: GasUnits
  gasPrice: GasPrice
}

export interface ReferenceLeg {
  path: Path
  amountIn: bigint
  amountOut: bigint
  ticksCrossed: number
}

export interface ReferenceSplit {
  legs: ReferenceLeg[]
  amountOut: bigint
  gas: bigint
  gasCost: bigint
  net: bigint
}

export interface ReferenceAnswer {
  /** The most net of gas, the figure a quote must reach (less 1 bps). */
  bestNet: ReferenceSplit
  /** The most output, gas left out: where gas is negligible, the figure a quote must reach. */
  bestRaw: ReferenceSplit
  /** Splits priced exactly (every path alone included). */
  splitsPriced: number
}

export class ReferenceFailure extends Error {
  override name = 'ReferenceFailure'
}

/** Parts of PARTS per path index. */
type Allocation = ReadonlyMap<number, number>

type Objective = 'net' | 'raw'

interface CurvePoint {
  amountOut: bigint
  /** The leg's own gas cost in token1 (route and hops, not the transaction). */
  legGasCost: bigint
  usable: boolean
}

const valueOf = (split: ReferenceSplit, objective: Objective) =>
  objective === 'net' ? split.net : split.amountOut

/**
 * The legs of an allocation, the largest share first; a whole allocation's largest leg takes
 * the rounding remainder.
 */
function legsOf(allocation: Allocation, paths: readonly Path[], amountIn: bigint): Leg[] {
  const shares = [...allocation]
    .filter(([, parts]) => parts > 0)
    .sort(([a, x], [b, y]) => y - x || a - b)
  const legs = shares.map(([index, parts]) => ({
    path: paths[index] as Path,
    amountIn: (amountIn * BigInt(parts)) / BigInt(PARTS),
  }))
  const whole = shares.reduce((sum, [, parts]) => sum + parts, 0) === PARTS
  const rest = amountIn - legs.reduce((sum, leg) => sum + leg.amountIn, 0n)
  if (whole && legs[0]) legs[0].amountIn += rest
  return legs.filter((leg) => leg.amountIn > 0n)
}

function splitOf(
  legs: readonly Leg[],
  outcome: SplitOutcome,
  ticks: readonly number[],
  query: ReferenceQuery,
): ReferenceSplit {
  const priced = legs.map((leg, index) => ({
    path: leg.path,
    amountIn: leg.amountIn,
    amountOut: outcome.legs[index]?.amountOut ?? 0n,
    ticksCrossed: ticks[index] ?? 0,
  }))
  const gas = splitGas(query.units, priced)
  const cost = gasCost(gas, query.gasPrice)
  return {
    legs: priced,
    amountOut: outcome.amountOut,
    gas,
    gasCost: cost,
    net: outcome.amountOut - cost,
  }
}

const keyOf = (allocation: Allocation) =>
  [...allocation]
    .filter(([, parts]) => parts > 0)
    .sort(([a], [b]) => a - b)
    .map(([index, parts]) => `${index}:${parts}`)
    .join(',')

/** Whether two paths share a pool. */
const sharePool = (a: Path, b: Path) =>
  a.hops.some((hop) => b.hops.some((other) => other.pool.address === hop.pool.address))

/**
 * The reference's best splits for one case, or 'unfillable' where every path pays 0; throws
 * ReferenceFailure when it cannot answer.
 */
export async function bruteForce(query: ReferenceQuery): Promise<ReferenceAnswer | 'unfillable'> {
  const { market, paths, amountIn, delivered, units, gasPrice } = query
  if (paths.length === 0) throw new ReferenceFailure('no path of up to 3 hops joins the tokens')
  if (amountIn <= 0n) throw new ReferenceFailure('nothing to swap')

  // Each path alone at a share of the input: exact for one leg, an estimate inside a split.
  const curves = paths.map(() => new Map<number, CurvePoint>())
  const point = (index: number, parts: number): CurvePoint => {
    const curve = curves[index] as Map<number, CurvePoint>
    let known = curve.get(parts)
    if (!known) {
      const path = paths[index] as Path
      const legAmount = (amountIn * BigInt(parts)) / BigInt(PARTS)
      const outcome = simulateLegsFast(market, [{ path, amountIn: legAmount }], delivered)
      const legGas =
        splitGas(units, [{ path, ticksCrossed: outcome.legs[0]?.ticksCrossed ?? 0 }]) -
        units.transaction
      known = {
        amountOut: outcome.amountOut,
        legGasCost: gasCost(legGas, gasPrice),
        usable: legAmount > 0n && outcome.complete,
      }
      curve.set(parts, known)
    }
    return known
  }

  // Exact pricing of an allocation (whole or partial), memoised.
  const priced = new Map<string, ReferenceSplit | undefined>()
  const price = (allocation: Allocation): ReferenceSplit | undefined => {
    const key = keyOf(allocation)
    if (priced.has(key)) return priced.get(key)
    const legs = legsOf(allocation, paths, amountIn)
    const outcome = simulateLegsFast(market, legs, delivered)
    const split = outcome.complete
      ? splitOf(
          legs,
          outcome,
          outcome.legs.map((leg) => leg.ticksCrossed),
          query,
        )
      : undefined
    priced.set(key, split)
    return split
  }

  const singles = paths.map((_, index) => index).filter((index) => point(index, PARTS).usable)
  if (singles.length === 0) {
    // Every path priced, and each pays 0 (a few units of a token worth far more each): nothing
    // can be bought, an answer in itself. Any other reason to have no route is a failure.
    if (paths.every((_, index) => point(index, PARTS).amountOut === 0n)) return 'unfillable'
    throw new ReferenceFailure('no path takes this input whole')
  }
  const byOutputAt = (parts: number) =>
    singles
      .filter((index) => point(index, parts).usable)
      .sort((a, b) => {
        const x = point(a, parts).amountOut
        const y = point(b, parts).amountOut
        return x === y ? a - b : x > y ? -1 : 1
      })
  const disjoint = (index: number, chosen: Iterable<number>) =>
    [...chosen].every(
      (other) => other === index || !sharePool(paths[index] as Path, paths[other] as Path),
    )

  // Water-filling over every path (cheap: each path is priced only as far as it is filled), which
  // also names the routes a split wants, the thin ones good for a slice included.
  const allocations: Allocation[] = singles.map((index) => new Map([[index, PARTS]]))
  const candidates: number[] = []
  const addCandidate = (index: number) => {
    if (!candidates.includes(index) && candidates.length < MAX_CANDIDATES) candidates.push(index)
  }
  for (const objective of ['raw', 'net'] as const) {
    const filled = waterFill(singles, point, objective, disjoint)
    if (!filled) continue
    allocations.push(filled)
    for (const index of filled.keys()) addCandidate(index)
    // The same with fewer routes: each drop of its smallest route, filled again.
    let shrinking: Allocation | undefined = filled
    while (objective === 'raw' && shrinking && shrinking.size > 1) {
      const [smallest] = [...shrinking].sort(([, x], [, y]) => x - y)[0] ?? []
      const kept = [...shrinking.keys()].filter((index) => index !== smallest)
      shrinking = waterFill(kept, point, 'raw', disjoint)
      if (shrinking) allocations.push(shrinking)
    }
  }
  for (const parts of SIZES_FOR_CANDIDATES) {
    for (const index of byOutputAt(parts).slice(0, CANDIDATES_PER_SIZE)) addCandidate(index)
  }
  for (const objective of ['raw', 'net'] as const) {
    const stepped = exactGreedy(candidates, price, objective)
    if (stepped) allocations.push(stepped)
  }
  const gridRoutes = byOutputAt(PARTS).slice(0, GRID_ROUTES)
  allocations.push(...gridFloor(gridRoutes, point, units, gasPrice, disjoint))

  // The best few distinct splits by each objective, each climbed; the best climb wins.
  const finish = (objective: Objective): ReferenceSplit => {
    const ranked = [...new Map(allocations.map((allocation) => [keyOf(allocation), allocation]))]
      .map(([, allocation]) => ({ allocation, split: price(allocation) }))
      .filter((entry): entry is { allocation: Allocation; split: ReferenceSplit } => !!entry.split)
      .sort((a, b) => {
        const x = valueOf(a.split, objective)
        const y = valueOf(b.split, objective)
        return x === y ? 0 : x > y ? -1 : 1
      })
    if (ranked.length === 0) throw new ReferenceFailure('no split could be priced')
    let best = ranked[0]?.split as ReferenceSplit
    for (const { allocation } of ranked.slice(0, CLIMB_STARTS)) {
      const climbed = price(
        climb(allocation, candidates, singles, price, objective),
      ) as ReferenceSplit
      if (valueOf(climbed, objective) > valueOf(best, objective)) best = climbed
    }
    return best
  }
  const bestNet = finish('net')
  const bestRaw = finish('raw')
  const confirmedNet = await confirmBySdk(bestNet, query)
  return {
    bestNet: confirmedNet,
    bestRaw: bestRaw === bestNet ? confirmedNet : await confirmBySdk(bestRaw, query),
    splitsPriced: priced.size,
  }
}

/**
 * Water-filling in 1 % steps over routes that share no pool (each step to the route whose next
 * 1 % pays the most, net of its gas for 'net'), at most MAX_ROUTES. For pool-disjoint concave
 * routes this is the optimum of the grid. Undefined when no route can take a step.
 */
function waterFill(
  candidates: readonly number[],
  point: (index: number, parts: number) => CurvePoint,
  objective: Objective,
  disjoint: (index: number, chosen: Iterable<number>) => boolean,
): Allocation | undefined {
  const parts = new Map<number, number>()
  for (let step = 0; step < PARTS; step += 1) {
    let best: { index: number; gain: bigint } | undefined
    for (const index of candidates) {
      const held = parts.get(index) ?? 0
      if (held === 0 && (parts.size === MAX_ROUTES || !disjoint(index, parts.keys()))) continue
      const next = point(index, held + 1)
      if (!next.usable) continue
      const now = held === 0 ? undefined : point(index, held)
      let gain = next.amountOut - (now?.amountOut ?? 0n)
      if (objective === 'net') gain -= next.legGasCost - (now?.legGasCost ?? 0n)
      if (!best || gain > best.gain) best = { index, gain }
    }
    if (!best) return undefined
    parts.set(best.index, (parts.get(best.index) ?? 0) + 1)
  }
  return parts
}

/**
 * A greedy in 5 % steps whose every step is priced exactly, legs in sequence: routes that share
 * a pool are valued together, as they execute. At most MAX_ROUTES routes.
 */
function exactGreedy(
  candidates: readonly number[],
  price: (allocation: Allocation) => ReferenceSplit | undefined,
  objective: Objective,
): Allocation | undefined {
  let parts = new Map<number, number>()
  let value: bigint | undefined
  for (let given = 0; given < PARTS; given += COARSE_STEP) {
    let best: { parts: Map<number, number>; value: bigint } | undefined
    for (const index of candidates) {
      if (!parts.has(index) && parts.size === MAX_ROUTES) continue
      const trial = new Map(parts).set(index, (parts.get(index) ?? 0) + COARSE_STEP)
      const split = price(trial)
      if (!split) continue
      const trialValue = valueOf(split, objective)
      if (!best || trialValue > best.value) best = { parts: trial, value: trialValue }
    }
    if (!best) return undefined
    parts = best.parts
    value = best.value
  }
  return value === undefined ? undefined : parts
}

/**
 * From a split, moves priced exactly while one gains, the best move each time: 5 % or 1 % from
 * one of its routes to another candidate, or one route's whole share to any path not in the
 * split (within MAX_ROUTES). A split of one route is left as it is: a second route is the other
 * searches' to find.
 */
function climb(
  start: Allocation,
  candidates: readonly number[],
  everyPath: readonly number[],
  price: (allocation: Allocation) => ReferenceSplit | undefined,
  objective: Objective,
): Allocation {
  let current = start
  let value = valueOf(price(start) as ReferenceSplit, objective)
  if (current.size < 2) return current
  for (let step = 0; step < CLIMB_STEPS; step += 1) {
    let best: { parts: Allocation; value: bigint } | undefined
    const consider = (trial: Allocation) => {
      const split = price(trial)
      if (!split) return
      const trialValue = valueOf(split, objective)
      if (trialValue > value && (!best || trialValue > best.value)) {
        best = { parts: trial, value: trialValue }
      }
    }
    const targets = [...new Set([...current.keys(), ...candidates])]
    for (const [from, held] of current) {
      for (const to of everyPath) {
        if (current.has(to)) continue
        const swapped = new Map(current)
        swapped.delete(from)
        consider(swapped.set(to, held))
      }
      for (const to of targets) {
        if (to === from) continue
        for (const moved of [COARSE_STEP, 1]) {
          if (moved > held) continue
          const trial = new Map(current)
          if (moved === held) trial.delete(from)
          else trial.set(from, held - moved)
          if (!trial.has(to) && trial.size >= MAX_ROUTES) continue
          consider(trial.set(to, (current.get(to) ?? 0) + moved))
        }
      }
    }
    if (!best) break
    current = (best as { parts: Allocation }).parts
    value = (best as { value: bigint }).value
  }
  return current
}

/**
 * The 5 % grid floor: every division into 5 % parts over every 2-4 of `routes` that share no
 * pool (so the routes' outputs alone add up), ranked by output and by net; the best few of each
 * are then priced exactly.
 */
function gridFloor(
  routes: readonly number[],
  point: (index: number, parts: number) => CurvePoint,
  units: GasUnits,
  gasPrice: GasPrice,
  disjoint: (index: number, chosen: Iterable<number>) => boolean,
): Allocation[] {
  const steps = PARTS / COARSE_STEP
  const value = routes.map((index) =>
    Array.from({ length: steps + 1 }, (_, step) => {
      if (step === 0) return { out: 0, cost: 0 }
      const at = point(index, step * COARSE_STEP)
      return at.usable
        ? { out: Number(at.amountOut), cost: Number(at.legGasCost) }
        : { out: -Infinity, cost: 0 }
    }),
  )
  const transactionCost = Number(gasCost(units.transaction, gasPrice))
  type Kept = { score: number; allocation: Allocation }
  const byRaw: Kept[] = []
  const byNet: Kept[] = []
  const chosen: [number, number][] = []
  const keep = (list: Kept[], score: number) => {
    if (list.length === GRID_KEPT && score <= (list[GRID_KEPT - 1] as Kept).score) return
    const allocation = new Map(
      chosen.map(([route, step]) => [routes[route] as number, step * COARSE_STEP]),
    )
    list.push({ score, allocation })
    list.sort((a, b) => b.score - a.score)
    if (list.length > GRID_KEPT) list.pop()
  }
  const walk = (from: number, stepsLeft: number, out: number, cost: number) => {
    if (stepsLeft === 0) {
      if (chosen.length < 2) return
      keep(byRaw, out)
      keep(byNet, out - cost - transactionCost)
      return
    }
    if (chosen.length === MAX_ROUTES) return
    for (let route = from; route < routes.length; route += 1) {
      const index = routes[route] as number
      if (
        !disjoint(
          index,
          chosen.map(([other]) => routes[other] as number),
        )
      )
        continue
      const last = chosen.length === MAX_ROUTES - 1
      for (let step = last ? stepsLeft : 1; step <= stepsLeft; step += 1) {
        const at = (value[route] as { out: number; cost: number }[])[step] as {
          out: number
          cost: number
        }
        if (at.out === -Infinity) continue
        chosen.push([route, step])
        walk(route + 1, stepsLeft - step, out + at.out, cost + at.cost)
        chosen.pop()
      }
    }
  }
  walk(0, steps, 0, 0)
  return [...byRaw, ...byNet].map(({ allocation }) => allocation)
}

/** The split priced again by the SDKs; any difference from the search's pricing fails loudly. */
async function confirmBySdk(split: ReferenceSplit, query: ReferenceQuery): Promise<ReferenceSplit> {
  const legs = split.legs.map(({ path, amountIn }) => ({ path, amountIn }))
  const sdk = await simulateLegsSdk(query.market, legs, query.delivered)
  const fast = simulateLegsFast(query.market, legs, query.delivered)
  const differs = fast.legs.some(
    (leg, index) => leg.hopOuts.join() !== sdk.legs[index]?.hopOuts.join(),
  )
  if (differs || !sdk.complete) {
    throw new ReferenceFailure(
      `the SDKs price the reference split differently from its search: ${legs
        .map(
          (leg, index) =>
            `${leg.path.key} in ${leg.amountIn}: search ${fast.legs[index]?.hopOuts.join('/')}, SDK ${sdk.legs[index]?.hopOuts.join('/')}`,
        )
        .join('; ')}`,
    )
  }
  return splitOf(
    legs,
    sdk,
    fast.legs.map((leg) => leg.ticksCrossed),
    query,
  )
}

/**
 * What the best single route pays for `amountIn`, gas ignored, priced by the SDKs: how the
 * reference prices the native coin in token1 (0.01 of it), as the service's convention says.
 */
export async function bestSingleRoute(
  query: Omit<ReferenceQuery, 'units' | 'gasPrice'>,
): Promise<bigint> {
  const { market, paths, amountIn, delivered } = query
  if (paths.length === 0) throw new ReferenceFailure('no path prices the native coin in token1')
  let best: { path: Path; amountOut: bigint } | undefined
  for (const path of paths) {
    const outcome = simulateLegsFast(market, [{ path, amountIn }], delivered)
    if (outcome.complete && (!best || outcome.amountOut > best.amountOut)) {
      best = { path, amountOut: outcome.amountOut }
    }
  }
  // 0.01 of the coin buys no unit of token1 (a token of 0 decimals): gas is worth 0 of it.
  if (!best) return 0n
  const sdk = await simulateLegsSdk(market, [{ path: best.path, amountIn }], delivered)
  if (sdk.amountOut !== best.amountOut) {
    throw new ReferenceFailure(
      `the SDKs price ${best.path.key} at ${sdk.amountOut}, the search at ${best.amountOut}`,
    )
  }
  return sdk.amountOut
}
