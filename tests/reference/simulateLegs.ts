import type { Address } from 'viem'
import { v2After, v2AmountOut, v2Input, v3SwapExactIn } from './fastPoolMath'
import type { Market, Path, PoolState, V2State, V3State } from './poolTypes'
import { sdkV2AmountOut, sdkV3Swap } from './sdkPoolMath'

// A split executed as the router executes it: its legs one after another on one copy of the
// pools' state, so legs that share a pool see each other's effect.

export interface Leg {
  path: Path
  amountIn: bigint
}

export interface LegOutcome {
  /** What each hop paid out, in order. */
  hopOuts: bigint[]
  /** What arrives at the recipient: the last hop's output less a transfer fee. */
  amountOut: bigint
  ticksCrossed: number
  /** Every hop took its whole input and paid something. */
  complete: boolean
}

export interface SplitOutcome {
  legs: LegOutcome[]
  amountOut: bigint
  complete: boolean
}

/** What a token's transfer delivers of `amount` (the fee measured on chain; 0 bps for most). */
export type Delivered = (token: Address, amount: bigint) => bigint

function stateIn(market: Market, overlay: Map<string, PoolState>, address: Address): PoolState {
  const state = overlay.get(address) ?? market.get(address)
  if (!state) throw new Error(`no state read for pool ${address}`)
  return state
}

function total(legs: LegOutcome[]): SplitOutcome {
  return {
    legs,
    amountOut: legs.reduce((sum, leg) => sum + leg.amountOut, 0n),
    complete: legs.every((leg) => leg.complete),
  }
}

/** The split by the bigint transcription of the SDKs' math (the search's pricing). */
export function simulateLegsFast(
  market: Market,
  legs: readonly Leg[],
  delivered: Delivered,
): SplitOutcome {
  const overlay = new Map<string, PoolState>()
  return total(
    legs.map(({ path, amountIn }) => {
      const hopOuts: bigint[] = []
      let ticksCrossed = 0
      let complete = true
      let amount = amountIn
      for (const hop of path.hops) {
        // Each hop's input is one transfer of its token (user or router to pool, pool to pool).
        const received = delivered(hop.tokenIn, amount)
        const state = stateIn(market, overlay, hop.pool.address)
        if (hop.pool.protocol === 'v2') {
          const v2 = state as V2State
          const input = v2Input(v2, hop.zeroForOne, received)
          amount = v2AmountOut(v2, hop.zeroForOne, input, hop.pool.feeBps)
          overlay.set(hop.pool.address, v2After(v2, hop.zeroForOne, input, amount))
        } else {
          const { fee, tickSpacing } = hop.pool
          const swap = v3SwapExactIn(state as V3State, fee, tickSpacing, hop.zeroForOne, received)
          amount = swap.amountOut
          complete &&= swap.complete
          ticksCrossed += swap.ticksCrossed
          overlay.set(hop.pool.address, swap.after)
        }
        if (amount <= 0n) complete = false
        hopOuts.push(amount)
      }
      const last = path.hops[path.hops.length - 1]
      const amountOut = last ? delivered(last.tokenOut, amount) : 0n
      return { hopOuts, amountOut, ticksCrossed, complete }
    }),
  )
}

/**
 * The same split priced by the Uniswap SDKs themselves: the figures the reference answers with.
 * Ticks crossed are not the SDK's to tell (v3Swap does not count them): 0 here, the bigint
 * pricing's count stands once both agree on every hop's amount.
 */
export async function simulateLegsSdk(
  market: Market,
  legs: readonly Leg[],
  delivered: Delivered,
): Promise<SplitOutcome> {
  const overlay = new Map<string, PoolState>()
  const outcomes: LegOutcome[] = []
  for (const { path, amountIn } of legs) {
    const hopOuts: bigint[] = []
    let complete = true
    let amount = amountIn
    for (const hop of path.hops) {
      const received = delivered(hop.tokenIn, amount)
      const state = stateIn(market, overlay, hop.pool.address)
      if (hop.pool.protocol === 'v2') {
        const v2 = state as V2State
        const input = v2Input(v2, hop.zeroForOne, received)
        amount = sdkV2AmountOut(hop.pool, v2, hop.zeroForOne, input)
        overlay.set(hop.pool.address, v2After(v2, hop.zeroForOne, input, amount))
      } else {
        const swap = await sdkV3Swap(hop.pool, state as V3State, hop.zeroForOne, received)
        amount = swap.amountOut
        complete &&= swap.complete
        overlay.set(hop.pool.address, swap.after)
      }
      if (amount <= 0n) complete = false
      hopOuts.push(amount)
    }
    const last = path.hops[path.hops.length - 1]
    const amountOut = last ? delivered(last.tokenOut, amount) : 0n
    outcomes.push({ hopOuts, amountOut, ticksCrossed: 0, complete })
  }
  return total(outcomes)
}
