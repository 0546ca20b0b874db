import type { Hop } from '../paths/enumeratePaths'
import { fastMarginal, fastRoute, type FastStates } from './fastModel'
import { DISCOVERY_PARTS, type SearchContext } from './searchContext'

/**
 * The balancing stops once the routes' marginal outputs agree within this fraction (0.1 bps):
 * what is left to gain is smaller still (second order in the step).
 */
export const MARGINAL_SPREAD = 1e-5
/** Moves tried at most while balancing one set of routes. */
const BALANCE_STEPS = 80

/**
 * The input balanced between the paths `indexes` from `start` (shares of it), on the model: a
 * step moves input from the route whose next unit pays least (its marginal output where the
 * whole split left the pools, fastMarginal) to the one whose next unit pays most, kept when the
 * split then pays more net of gas, else the step halves. A route given nothing pays no gas. Stops
 * when the marginal outputs agree (MARGINAL_SPREAD), the step is below a unit in 2^20 of the
 * input, or after `steps` moves (BALANCE_STEPS; the first step a 40th of the input unless
 * `step`). Returns each route's input.
 */
export function balance(
  context: SearchContext,
  indexes: readonly number[],
  start: readonly number[],
  options: { steps?: number; step?: number } = {},
): number[] {
  const total = start.reduce((sum, share) => sum + share, 0)
  let amounts = start.map((share) => (share / total) * context.amountIn)
  const routePaths = indexes.map((index) => context.paths[index] ?? [])
  let current = evaluate(context, routePaths, amounts)
  if (indexes.length < 2) return amounts
  let step = options.step ?? context.amountIn / (2 * DISCOVERY_PARTS)
  const smallest = context.amountIn / 2 ** 20
  const steps = options.steps ?? BALANCE_STEPS
  for (let tried = 0; tried < steps && step >= smallest; tried += 1) {
    const move = chooseMove(current.marginals, amounts)
    if (!move) break
    const moved = Math.min(amounts[move.low] ?? 0, step)
    const next = amounts.map((amount, position) =>
      position === move.low ? amount - moved : position === move.high ? amount + moved : amount,
    )
    const candidate = evaluate(context, routePaths, next)
    if (candidate.net > current.net) {
      current = candidate
      amounts = next
    } else {
      step /= 2
    }
  }
  return amounts
}

/** A split's net of gas and each route's marginal output where the whole split left the pools. */
function evaluate(
  context: SearchContext,
  routePaths: readonly (readonly Hop[])[],
  amounts: readonly number[],
): { net: number; marginals: number[] } {
  const states: FastStates = new Map()
  let net = 0
  for (let position = 0; position < amounts.length; position += 1) {
    const amount = amounts[position] ?? 0
    const route = fastRoute(routePaths[position] ?? [], amount, states, true, context.units)
    if (amount > 0) net += route.amountOut - route.gas * context.gasPrice
  }
  const marginals = routePaths.map((path) => fastMarginal(path, states))
  return { net, marginals }
}

/**
 * The move to try: from the route in use whose next unit pays least to the one whose next unit
 * pays most; none once they agree within MARGINAL_SPREAD.
 */
function chooseMove(
  marginals: readonly number[],
  amounts: readonly number[],
): { high: number; low: number } | undefined {
  let high = -1
  let low = -1
  marginals.forEach((marginal, position) => {
    if (high < 0 || marginal > (marginals[high] ?? 0)) high = position
    if ((amounts[position] ?? 0) > 0 && (low < 0 || marginal < (marginals[low] ?? 0))) {
      low = position
    }
  })
  const highest = marginals[high] ?? 0
  const lowest = marginals[low] ?? 0
  if (high < 0 || low < 0 || high === low || highest <= 0) return undefined
  if ((highest - lowest) / highest < MARGINAL_SPREAD) return undefined
  return { high, low }
}
