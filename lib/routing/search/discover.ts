import type { Hop } from '../paths/enumeratePaths'
import { fastRoute, type FastStates } from './fastModel'
import { DISCOVERY_PARTS, type SearchContext } from './searchContext'

/**
 * Which new routes a discovery may open beside those it has: any; or only one that shares no
 * pool with them on its first hop (where an order too large for the input token's pools is
 * best spread over all of them), or on its last (the output token's pools); or only one that
 * shares no pool with them at all (the brute force's water-filling).
 */
export type DiscoveryRule = 'any' | 'newFirstPool' | 'newLastPool' | 'disjoint'
export const DISCOVERY_RULES: readonly DiscoveryRule[] = ['any', 'newFirstPool', 'newLastPool']

/** The paths a discovery gave anything, with what they were given. */
export type Discovered = { index: number; amount: number }[]

/**
 * A discovery (see searchSplit): the input in DISCOVERY_PARTS parts, each to the path that pays
 * most for it (net of its gas if it is new, unless `raw`: gas left out) on the pools as the
 * parts before left them; a new path only as `rule` allows and while fewer than `maxRoutes` are
 * open; the first part to `first` where given. The paths given anything with what they were
 * given, the most first.
 */
export function discover(
  context: SearchContext,
  rule: DiscoveryRule,
  maxRoutes: number,
  options: { raw?: boolean; first?: number } = {},
): Discovered {
  const { paths, units } = context
  const { first } = options
  const gasPrice = options.raw ? 0 : context.gasPrice
  const states: FastStates = new Map()
  const part = context.amountIn / DISCOVERY_PARTS
  const given = new Map<number, number>()
  const opened = (index: number) => mayOpen(paths, given, index, rule, maxRoutes)
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

/** Whether the path `index` may take a part: open already, or a new one `rule` allows. */
function mayOpen(
  paths: readonly (readonly Hop[])[],
  given: ReadonlyMap<number, number>,
  index: number,
  rule: DiscoveryRule,
  maxRoutes: number,
): boolean {
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
