import { balance, MARGINAL_SPREAD } from './balance'
import { fastMarginal, fastRoute, type FastStates } from './fastModel'
import { type Candidate, type SearchContext } from './searchContext'

/** Routes left out a completion round tries opening, those paying most at the margin first. */
const COMPLETION_OPENINGS = 3

/**
 * The water-filling condition checked on a balanced split: at the best split no route left out
 * pays more for a next unit than the routes in use. Where some do (on the model, at the pools as
 * the whole split leaves them), each of the COMPLETION_OPENINGS paying most is opened beside them
 * (fewer than `maxRoutes`) or in place of each in turn, and each set balanced again; the set
 * netting most on the model is returned. Undefined when no route left out pays more at the
 * margin.
 */
export function complete(
  context: SearchContext,
  start: Candidate,
  maxRoutes: number,
): Candidate | undefined {
  const opened = openings(context, start)
  if (opened.length === 0) return undefined
  const sets: Candidate[] = opened.flatMap((index): Candidate[] =>
    start.indexes.length < maxRoutes
      ? [{ indexes: [...start.indexes, index], shares: [...start.shares, 0] }]
      : start.indexes.map((_, replaced) => ({
          indexes: start.indexes.map((kept, position) => (position === replaced ? index : kept)),
          shares: [...start.shares],
        })),
  )
  const { paths, units, gasPrice } = context
  let chosen: { candidate: Candidate; net: number } | undefined
  for (const set of sets) {
    const shares = balance(context, set.indexes, set.shares)
    const modelStates: FastStates = new Map()
    let net = 0
    shares.forEach((amount, position) => {
      if (amount <= 0) return
      const path = paths[set.indexes[position] ?? -1] ?? []
      const route = fastRoute(path, amount, modelStates, true, units)
      net += route.amountOut - route.gas * gasPrice
    })
    if (!chosen || net > chosen.net) chosen = { candidate: { indexes: set.indexes, shares }, net }
  }
  return chosen?.candidate
}

/**
 * The paths left out that pay more for a next unit than the split's routes, where the split left
 * the pools: the COMPLETION_OPENINGS paying most, those first.
 */
function openings(context: SearchContext, start: Candidate): number[] {
  const { paths, units } = context
  const states: FastStates = new Map()
  start.indexes.forEach((index, position) => {
    fastRoute(paths[index] ?? [], start.shares[position] ?? 0, states, true, units)
  })
  const lowest = Math.min(...start.indexes.map((index) => fastMarginal(paths[index] ?? [], states)))
  const threshold = lowest * (1 + MARGINAL_SPREAD)
  return paths
    .map((path, index) => ({ index, marginal: fastMarginal(path, states) }))
    .filter((entry) => !start.indexes.includes(entry.index) && entry.marginal > threshold)
    .sort((a, b) => b.marginal - a.marginal)
    .slice(0, COMPLETION_OPENINGS)
    .map((entry) => entry.index)
}
