import type { Hop } from '../paths/enumeratePaths'
import { fastMarginal, fastRoute, fastSpotRate, type FastStates } from './fastModel'
import type { PricedSplit } from './priceSplit'
import type { SearchContext } from './searchContext'

/** Bisections of pathSurplus: its bracket is then the input over 2^24. */
const SURPLUS_BISECTIONS = 24

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
export function splitMayPay(
  context: SearchContext,
  single: PricedSplit,
  singleIndex: number,
): boolean {
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
function pathSurplus(context: SearchContext, path: readonly Hop[], rate: number): number {
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
