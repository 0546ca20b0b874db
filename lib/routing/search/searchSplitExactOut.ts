import type { Address } from 'viem'
import type { RouteGasUnits } from '../../config'
import { type GasPriceInToken1, NO_GAS_PRICE } from '../gas/gasModel'
import type { Hop } from '../paths/enumeratePaths'
import type { Pool } from '../pools/pool'
import { type LegOut, priceSplitExactOut, type PricedSplitExactOut } from './priceSplitExactOut'
import type { PricedSplit } from './priceSplit'
import { searchSplit, searchSplits } from './searchSplit'

/** Rounds of the input's inversion after the first guess (each one exact-input search). */
const INVERSION_ROUNDS = 2
/**
 * The inversion stops once the split pays within this fraction of the amount wanted: its routes'
 * shares are scaled to the amount and balanced on exact figures anyway, so a closer input buys
 * nothing but another search (the most CPU of a large exact-output quote).
 */
const INVERSION_TOLERANCE = 2e-3
/** The balancing's moves of output between routes, from 1/2^FIRST_LEVEL of it to 1/2^LAST_LEVEL. */
const FIRST_LEVEL = 6
const LAST_LEVEL = 15
/** Splits of doubled inputs tried where none found can pay the amount. */
const WIDER_ROUNDS = 3
/** Inputs tried, each PAYING_STEP times the last, where the guessed one pays nothing (16^24 = 2^96). */
const PAYING_STEP = 16n
const PAYING_ROUNDS = 24
/**
 * The exact-input search's runners-up (its best sets of several routes) balanced beside its
 * answer: its exact figures round each route's output down to a unit of the output token, which
 * at a token of few decimals outweighs what a split gains (of 427 units of a token of 0 decimals
 * each route loses up to a unit, 2.3 bps, more than the 3-5 bps a second and third route save on
 * price leave after rounding), while an exact output gives each route a whole number of units.
 */
const RUNNERS_UP = 3
/** A runner-up may net this fraction of the output less and still be balanced (0.01 bps). */
const ROUNDING_SLACK = 1_000_000n

export interface SearchSplitExactOutParameters {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  through: readonly Address[]
  /** What must arrive, in base units of tokenOut. */
  amountOut: bigint
  units: RouteGasUnits
  /** Gas priced in each end token: token1 for the exact-input searches, token0 for the cost. */
  gasPrices: { token0: GasPriceInToken1; token1: GasPriceInToken1 }
  maxRoutes?: number
}

/**
 * A route SwapRouter02 runs for an exact output: one protocol throughout (one exactOutput call,
 * or one swapTokensForExactTokens). Its exact-output calls pay from the sender, never from what
 * the router holds, so a route mixing V2 and V3 cannot pay exactly (Uniswap's router SDK has the
 * same rule).
 */
export const runsExactOut = (path: readonly Hop[]): boolean =>
  path.every((hop) => hop.pool.protocol === path[0]?.pool.protocol)

/**
 * The split of exactly `amountOut` over up to `maxRoutes` routes that takes least `amountIn`
 * plus gas in token0 (DECISIONS §10.1, mirroring §9.3). The exact-input search (searchSplit) is
 * the engine: by duality the split that pays most net of gas for an input is the one that takes
 * least for what it pays, so the input is found whose best exact-input split pays `amountOut`
 * (a guess from the search the other way, then secant rounds), and that split's routes are given
 * their shares of `amountOut` and priced backwards by the pools' exact-output math
 * (priceSplitExactOut), then balanced by moves of output between routes while the cost falls;
 * so are the search's runners-up (RUNNERS_UP). Beside them each of its routes alone and the best
 * single route are priced; the least cost wins.
 * Undefined when no path joins the tokens; a split with `complete: false` when none can pay the
 * amount (more than the pools hold).
 */
export function searchSplitExactOut(
  parameters: SearchSplitExactOutParameters,
): PricedSplitExactOut | undefined {
  const { pools, tokenIn, tokenOut, through, amountOut, units, gasPrices } = parameters
  const guess = searchSplit({
    pools,
    tokenIn: tokenOut,
    tokenOut: tokenIn,
    through,
    amountIn: amountOut,
    units,
    gasPrice: NO_GAS_PRICE,
    maxRoutes: 1,
    allowPath: runsExactOut,
  })
  const searched = (amountIn: bigint, maxRoutes = parameters.maxRoutes) =>
    searchSplits(
      {
        pools,
        tokenIn,
        tokenOut,
        through,
        amountIn,
        units,
        gasPrice: gasPrices.token1,
        allowPath: runsExactOut,
        ...(maxRoutes && { maxRoutes }),
      },
      RUNNERS_UP,
    )
  const forward = (amountIn: bigint, maxRoutes?: number) => searched(amountIn, maxRoutes)?.best
  // The guess pays nothing where the amount is worth less than a unit of tokenIn (4 USDC of a
  // token of 0 decimals), and the input it guesses may pay 0 units where the amount is a unit or
  // two (each way floors and takes a fee): then inputs PAYING_STEP times larger, until one pays.
  // Where no path joins the tokens, each of those searches finds none at once.
  let amountIn = guess && guess.amountOut > 0n ? guess.amountOut : 1n
  let found = searched(amountIn)
  for (let round = 0; !found && round < PAYING_ROUNDS; round += 1) {
    amountIn *= PAYING_STEP
    found = searched(amountIn)
  }
  if (!found) return undefined
  for (let round = 0; round < INVERSION_ROUNDS; round += 1) {
    if (found.best.amountOut <= 0n) break
    const ratio = Number(amountOut) / Number(found.best.amountOut)
    if (Math.abs(ratio - 1) < INVERSION_TOLERANCE) break
    const next = (amountIn * amountOut) / found.best.amountOut + 1n
    // An input that pays nothing is no better guess than the one that paid.
    const again = searched(next)
    if (!again) break
    amountIn = next
    found = again
  }
  const split = found.best
  const price = (legs: readonly LegOut[]) => priceSplitExactOut(legs, units, gasPrices)
  const candidates: PricedSplitExactOut[] = [balanced(sharedOut(split, amountOut), price)]
  for (const runnerUp of found.runnersUp) {
    if (!sameRoutes(runnerUp, split) && shortByRounding(runnerUp, split)) {
      candidates.push(balanced(sharedOut(runnerUp, amountOut), price))
    }
  }
  const single = forward(amountIn, 1)
  const singles = [...split.routes, ...(single?.routes ?? [])]
  for (const route of singles) candidates.push(price([{ hops: route.hops, amountOut }]))
  // Near what the pools hold, the split found may ask a route for more than it can pay: the
  // splits of larger inputs spread wider, their shares of the amount each within reach.
  let wider = amountIn
  for (let round = 0; round < WIDER_ROUNDS && !leastCost(candidates)?.complete; round += 1) {
    wider *= 2n
    const spread = forward(wider)
    if (spread) candidates.push(balanced(sharedOut(spread, amountOut), price))
  }
  return leastCost(candidates)
}

/** The split's routes, each given its part of `amountOut` by what it paid (largest remainder). */
function sharedOut(split: PricedSplit, amountOut: bigint): LegOut[] {
  const paid = split.routes.map((route) => route.amountOut)
  const total = paid.reduce((sum, amount) => sum + amount, 0n)
  const shares = paid.map((amount) => (total === 0n ? 0n : (amount * amountOut) / total))
  shares[0] = (shares[0] ?? 0n) + amountOut - shares.reduce((sum, share) => sum + share, 0n)
  return split.routes.map((route, index) => ({ hops: route.hops, amountOut: shares[index] ?? 0n }))
}

/**
 * Whether what `runnerUp` nets less than `best` on the exact-input figures is no more than their
 * rounding can explain: a unit of token1 for each of its hops (each floors its output) and one
 * for the gas's cost, and ROUNDING_SLACK of the output for the model's balancing. Beyond that the
 * duality holds and the runner-up costs more for the output too, so it is not balanced again: at
 * a token of many decimals the runners-up cost no CPU (exactOutOptimality's searches: the same
 * CPU in all as without them, 2.59 s; 3.31 s balancing every runner-up).
 */
function shortByRounding(runnerUp: PricedSplit, best: PricedSplit): boolean {
  const hops = runnerUp.routes.reduce((count, route) => count + route.hops.length, 0)
  const slack = BigInt(hops + 1) + best.amountOut / ROUNDING_SLACK
  return best.net - runnerUp.net <= slack
}

/** Whether two splits run the same routes (in any order). */
function sameRoutes(a: PricedSplit, b: PricedSplit): boolean {
  const keys = (split: PricedSplit) =>
    split.routes
      .map((route) => route.hops.map((hop) => hop.pool.address.toLowerCase()).join('>'))
      .sort()
      .join()
  return keys(a) === keys(b)
}

/** Complete before incomplete, then the least cost, then the fewest routes. */
function leastCost(candidates: readonly PricedSplitExactOut[]): PricedSplitExactOut | undefined {
  let best: PricedSplitExactOut | undefined
  for (const candidate of candidates) {
    if (!best || better(candidate, best)) best = candidate
  }
  return best
}

function better(a: PricedSplitExactOut, b: PricedSplitExactOut): boolean {
  if (a.complete !== b.complete) return a.complete
  if (!a.complete) return a.amountOut > b.amountOut
  if (a.cost !== b.cost) return a.cost < b.cost
  return a.routes.length < b.routes.length
}

/**
 * The legs balanced on exact figures: output moved from one route to another in steps halving
 * from 1/2^FIRST_LEVEL of the whole to 1/2^LAST_LEVEL, each kept while the cost falls (a route
 * emptied is dropped, and its gas with it).
 */
function balanced(
  start: LegOut[],
  price: (legs: readonly LegOut[]) => PricedSplitExactOut,
): PricedSplitExactOut {
  let legs = start
  let best = price(legs)
  if (legs.length < 2) return best
  const whole = legs.reduce((sum, leg) => sum + leg.amountOut, 0n)
  for (let level = FIRST_LEVEL; level <= LAST_LEVEL; level += 1) {
    const step = whole >> BigInt(level)
    if (step === 0n) break
    let moved = true
    for (let pass = 0; moved && pass < 2; pass += 1) {
      moved = false
      for (let from = 0; from < legs.length; from += 1) {
        for (let to = 0; to < legs.length; to += 1) {
          const source = legs[from]?.amountOut ?? 0n
          if (from === to || source === 0n) continue
          const amount = source < step ? source : step
          const next = legs.map((leg, index) =>
            index === from
              ? { ...leg, amountOut: leg.amountOut - amount }
              : index === to
                ? { ...leg, amountOut: leg.amountOut + amount }
                : leg,
          )
          const priced = price(next)
          if (better(priced, best)) {
            legs = next
            best = priced
            moved = true
          }
        }
      }
    }
  }
  return best
}
