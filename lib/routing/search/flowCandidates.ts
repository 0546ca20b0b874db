import { balance } from './balance'
import { decomposeFlows, subsetsOf, unlimitedFlows } from './poolFlow'
import { type Candidate, modelNet, type SearchContext } from './searchContext'

/** Parts of the input the unlimited routing of poolFlow.ts hands out (2 % each). */
const FLOW_PARTS = 25
/** Paths the pools' flows are decomposed into: every set of maxRoutes of them is weighed. */
const FLOW_PATHS = 6
/** Moves a set of the decomposition's paths is balanced with before the sets are ranked. */
const FLOW_QUICK_STEPS = 12
/** Sets of the decomposition's paths balanced in full and priced, the best ranked first. */
const FLOW_BALANCED = 1

/**
 * Candidates from pool-level routing (poolFlow.ts): the input routed with no limit on routes,
 * the pools' flows decomposed into FLOW_PATHS paths, every set of `maxRoutes` of them (or all, if
 * fewer) balanced briefly from the decomposition's amounts, and the FLOW_BALANCED netting most
 * on the model balanced in full.
 */
export function flowCandidates(context: SearchContext, maxRoutes: number): Candidate[] {
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
