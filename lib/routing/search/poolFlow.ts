import { fastRoute, type FastStates } from './fastModel'
import type { Hop } from '../paths/enumeratePaths'
import type { RouteGasUnits } from '../../config'

// Pool-level routing as the split search's candidate generator (issue 33): the best split is a
// question of how much each pool trades, and many route sets realise nearly the same pool flows.
// So the input is first routed with no limit on routes (water-filling in small parts, gas left
// out: the optimum of the convex problem over pools, Angeris et al., approached from its
// path side), and the pools' flows are then decomposed into paths, the widest first; a split of
// at most 4 routes is sought among those paths (searchSplit), not among all of them.

/** A directed pool: the input it took and the output it gave in the unlimited routing. */
interface PoolFlow {
  in: number
  out: number
}

/** One path of a decomposition: its index among the paths, and the input it carries. */
export interface FlowPath {
  index: number
  amount: number
}

const directed = (hop: Hop) => `${hop.pool.address}:${hop.tokenIn}`

/**
 * The input routed over `paths` with no limit on routes, in `parts` equal parts, each to the
 * path paying most for it where the earlier parts left the pools (on the fast model; gas left
 * out); returns each directed pool's total input and output.
 */
export function unlimitedFlows(
  paths: readonly (readonly Hop[])[],
  amountIn: number,
  parts: number,
  units: RouteGasUnits,
): Map<string, PoolFlow> {
  const states: FastStates = new Map()
  const flows = new Map<string, PoolFlow>()
  const part = amountIn / parts
  // Each hop as a path of its own, made once (the model prepares a path once per array).
  const hopsAlone = new Map(paths.flatMap((path) => path.map((hop) => [hop, [hop]] as const)))
  for (let handed = 0; handed < parts; handed += 1) {
    let chosen: readonly Hop[] | undefined
    let chosenOut = 0
    for (const path of paths) {
      const { amountOut } = fastRoute(path, part, states, false, units)
      if (amountOut > chosenOut) {
        chosen = path
        chosenOut = amountOut
      }
    }
    if (!chosen) break
    // Hop by hop, so each pool's own input and output are known.
    let amount = part
    for (const hop of chosen) {
      const { amountOut } = fastRoute(hopsAlone.get(hop) ?? [hop], amount, states, true, units)
      const flow = flows.get(directed(hop)) ?? { in: 0, out: 0 }
      flow.in += amount
      flow.out += amountOut
      flows.set(directed(hop), flow)
      amount = amountOut
    }
  }
  return flows
}

/**
 * The pools' flows decomposed into at most `count` paths, the widest first: each step takes the
 * path that can carry most of what the pools have left (a hop's share of input scaled by the
 * pools before it at their average rate in the unlimited routing) and takes its flow off. Stops
 * when no path carries a `1 / 10^4` of the input.
 */
export function decomposeFlows(
  paths: readonly (readonly Hop[])[],
  flows: ReadonlyMap<string, PoolFlow>,
  amountIn: number,
  count: number,
): FlowPath[] {
  const left = new Map([...flows].map(([key, flow]) => [key, flow.in]))
  const rateOf = (hop: Hop) => {
    const flow = flows.get(directed(hop))
    return flow && flow.in > 0 ? flow.out / flow.in : 0
  }
  const found: FlowPath[] = []
  while (found.length < count) {
    let chosen = -1
    let chosenWidth = amountIn * 1e-4
    paths.forEach((path, index) => {
      let width = Number.POSITIVE_INFINITY
      let scale = 1
      for (const hop of path) {
        width = Math.min(width, (left.get(directed(hop)) ?? 0) / scale)
        scale *= rateOf(hop)
        if (!(width > 0)) return
      }
      if (width > chosenWidth) {
        chosen = index
        chosenWidth = width
      }
    })
    const path = paths[chosen]
    if (!path) break
    let scale = 1
    for (const hop of path) {
      left.set(directed(hop), (left.get(directed(hop)) ?? 0) - chosenWidth * scale)
      scale *= rateOf(hop)
    }
    found.push({ index: chosen, amount: chosenWidth })
  }
  return found
}

/** Every set of `size` of `items` (in their order), by positions. */
export function subsetsOf(count: number, size: number): number[][] {
  const sets: number[][] = []
  const walk = (from: number, chosen: number[]) => {
    if (chosen.length === size) {
      sets.push(chosen)
      return
    }
    for (let next = from; next <= count - (size - chosen.length); next += 1) {
      walk(next + 1, [...chosen, next])
    }
  }
  if (size > 0 && size <= count) walk(0, [])
  return sets
}
