import type { Address } from 'viem'
import { type GasPrice, type GasUnits, gasCost, splitGas } from './gasModel'
import type { Market, Path, PoolState, V2State, V3State } from './poolTypes'
import { sdkV2AmountOut } from './sdkPoolMath'
import { sdkV2AmountIn, sdkV3SwapExactOut } from './sdkPoolMathExactOut'

// The brute force of issue 33 mirrored for exact output (DECISIONS §10.1): the least input plus
// gas in token0 for exactly an output. Every path SwapRouter02 can run exactly (one protocol
// throughout: its exact-output calls pay from the sender, so a route cannot mix V2 and V3) is
// priced alone by the Uniswap SDKs; splits of up to MAX_ROUTES routes come from a greedy over the
// best few routes that hands out the output in STEP_PARTS equal parts, each to the route costing
// least more for it where the earlier parts left the pools, then a climb of finer moves. Every
// candidate is priced as the router runs it: legs in sequence on one copy of the pools, each
// backwards from its output; a V2 leg's pairs then pay forward what its exact input buys.

export const MAX_ROUTES = 4
const STEP_PARTS = 20
const CANDIDATES = 12
const CLIMB_PARTS = 100
const CLIMB_STEPS = 12

export interface ExactOutQuery {
  market: Market
  paths: readonly Path[]
  amountOut: bigint
  units: GasUnits
  /** Token0 per gas unit. */
  gasPrice: GasPrice
}

export interface ExactOutLeg {
  path: Path
  amountOut: bigint
  amountIn: bigint
  ticksCrossed: number
}

export interface ExactOutSplit {
  legs: ExactOutLeg[]
  amountIn: bigint
  gas: bigint
  /** amountIn + gas in token0: what the search minimises. */
  cost: bigint
}

export const runsExactly = (path: Path) =>
  path.hops.every((hop) => hop.pool.protocol === path.hops[0]?.pool.protocol)

/**
 * Legs priced in order on one copy of the pools, each backwards from its output (SDK math);
 * undefined when a leg cannot be paid.
 */
export async function priceLegsOut(
  market: Market,
  legs: readonly { path: Path; amountOut: bigint }[],
  units: GasUnits,
  gasPrice: GasPrice,
): Promise<ExactOutSplit | undefined> {
  const overlay = new Map<string, PoolState>()
  const stateOf = (address: Address) => overlay.get(address) ?? market.get(address)
  const priced: ExactOutLeg[] = []
  for (const leg of legs) {
    if (leg.amountOut <= 0n) continue
    let amount = leg.amountOut
    let ticksCrossed = 0
    const befores: PoolState[] = []
    for (const hop of [...leg.path.hops].reverse()) {
      const state = stateOf(hop.pool.address)
      if (!state) throw new Error(`no state for ${hop.pool.address}`)
      befores.unshift(state)
      if (hop.pool.protocol === 'v2') {
        const v2 = state as V2State
        const amountIn = sdkV2AmountIn(hop.pool, v2, hop.zeroForOne, amount)
        if (amountIn === undefined) return undefined
        amount = amountIn
      } else {
        const swap = await sdkV3SwapExactOut(hop.pool, state as V3State, hop.zeroForOne, amount)
        if (!swap.complete) return undefined
        overlay.set(hop.pool.address, swap.after)
        ticksCrossed += swap.ticksCrossed
        amount = swap.amountIn
      }
    }
    if (leg.path.hops[0]?.pool.protocol === 'v2') {
      // The pairs pay forward what the exact input buys (SwapRouter02's V2 hops).
      let forward = amount
      leg.path.hops.forEach((hop, index) => {
        const v2 = befores[index] as V2State
        const out = sdkV2AmountOut(hop.pool as never, v2, hop.zeroForOne, forward)
        overlay.set(hop.pool.address, {
          ...v2,
          reserve0: hop.zeroForOne ? v2.reserve0 + forward : v2.reserve0 - out,
          reserve1: hop.zeroForOne ? v2.reserve1 - out : v2.reserve1 + forward,
        })
        forward = out
      })
    }
    priced.push({ path: leg.path, amountOut: leg.amountOut, amountIn: amount, ticksCrossed })
  }
  const amountIn = priced.reduce((sum, leg) => sum + leg.amountIn, 0n)
  const gas = splitGas(units, priced)
  return { legs: priced, amountIn, gas, cost: amountIn + gasCost(gas, gasPrice) }
}

type Allocation = Map<number, number>

/** The best split for exactly `amountOut`: least input plus gas; undefined when none can pay it. */
export async function bruteForceExactOut(query: ExactOutQuery): Promise<ExactOutSplit | undefined> {
  const { market, amountOut, units, gasPrice } = query
  const paths = query.paths.filter(runsExactly)
  // Each route `share` parts of `parts` of the output; where the parts are all handed out, the
  // first route takes the rounding so the legs pay exactly `amountOut`.
  const price = (allocation: Allocation, parts: number) => {
    const given = [...allocation.values()].reduce((sum, share) => sum + share, 0)
    return priceLegsOut(
      market,
      [...allocation]
        .filter(([, share]) => share > 0)
        .map(([index, share]) => ({
          path: paths[index] as Path,
          amountOut: (amountOut * BigInt(share)) / BigInt(parts),
        }))
        .map((leg, position, all) =>
          position === 0 && given === parts
            ? {
                ...leg,
                amountOut:
                  amountOut - all.slice(1).reduce((sum, other) => sum + other.amountOut, 0n),
              }
            : leg,
        ),
      units,
      gasPrice,
    )
  }
  let best: ExactOutSplit | undefined
  const offer = (split: ExactOutSplit | undefined) => {
    if (split && (!best || split.cost < best.cost)) best = split
    return split
  }
  // Every path alone, and the best few at several sizes as the greedy's candidates.
  const bySize = new Map<number, { index: number; cost: bigint }[]>()
  for (const [index] of paths.entries()) {
    for (const share of [STEP_PARTS, STEP_PARTS / 2, STEP_PARTS / 4, 1]) {
      const split = await price(new Map([[index, share]]), STEP_PARTS)
      if (share === STEP_PARTS) offer(split)
      if (split) bySize.set(share, [...(bySize.get(share) ?? []), { index, cost: split.cost }])
    }
  }
  const candidates = [
    ...new Set(
      [...bySize.values()].flatMap((entries) =>
        entries
          .sort((a, b) => (a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : 0))
          .slice(0, CANDIDATES / 4)
          .map((entry) => entry.index),
      ),
    ),
  ]
  const greedy = await handOut(candidates, price)
  offer(greedy.split)
  if (greedy.allocation) offer(await climb(greedy.allocation, greedy.split, price))
  return best
}

type Price = (allocation: Allocation, parts: number) => Promise<ExactOutSplit | undefined>

/**
 * STEP_PARTS parts, each to the candidate costing least more with it, at most MAX_ROUTES routes
 * (so a size no single pool can pay is spread over the pools that can).
 */
async function handOut(candidates: readonly number[], price: Price) {
  let allocation: Allocation = new Map()
  let split: ExactOutSplit | undefined
  for (let part = 0; part < STEP_PARTS; part += 1) {
    let chosen: { allocation: Allocation; split: ExactOutSplit } | undefined
    for (const index of candidates) {
      if (!allocation.has(index) && allocation.size >= MAX_ROUTES) continue
      const next = new Map(allocation)
      next.set(index, (next.get(index) ?? 0) + 1)
      // The parts handed out so far, each a STEP_PARTS-th of the output, on the pools as the
      // earlier parts left them (priced together, in order).
      const priced = await price(next, STEP_PARTS)
      if (priced && (!chosen || priced.cost < chosen.split.cost))
        chosen = { allocation: next, split: priced }
    }
    if (!chosen) return { allocation: undefined, split: undefined }
    allocation = chosen.allocation
    split = chosen.split
  }
  return { allocation, split }
}

/** Moves of 1 % of the output between the allocation's routes while the cost falls. */
async function climb(start: Allocation, startSplit: ExactOutSplit | undefined, price: Price) {
  let allocation = new Map(
    [...start].map(([index, share]) => [index, share * (CLIMB_PARTS / STEP_PARTS)]),
  )
  let best = startSplit
  for (let step = 0; step < CLIMB_STEPS; step += 1) {
    let improved = false
    for (const from of allocation.keys()) {
      for (const to of allocation.keys()) {
        if (from === to || (allocation.get(from) ?? 0) === 0) continue
        const next = new Map(allocation)
        next.set(from, (next.get(from) ?? 0) - 1)
        next.set(to, (next.get(to) ?? 0) + 1)
        const priced = await price(next, CLIMB_PARTS)
        if (priced && (!best || priced.cost < best.cost)) {
          allocation = next
          best = priced
          improved = true
        }
      }
    }
    if (!improved) break
  }
  return best
}
