import type { Address } from 'viem'
import type { GasUnits } from '../../config'
import { type GasShape, shapeGas, transactionShape } from '../gas/gasModel'
import type { Hop } from '../paths/enumeratePaths'
import { sameToken } from '../pools/pool'
import type { SimulatedSplit } from '../simulate/simulateSplit'
import type { QuotePlan } from './feeSafePlans'

/** What a plan's transaction is besides its routes: its ends, as the gas model counts them. */
export interface PlanEnds {
  nativeIn: boolean
  nativeOut: boolean
  /** The end tokens that may take a fee on transfer (unsureTokens). */
  unsure: readonly Address[]
  freshRecipient: boolean
}

/** What the gas model counts of a plan's transaction (its shape), as simulated where it was. */
export function planShape(plan: QuotePlan, ends: PlanEnds, simulated?: SimulatedSplit): GasShape {
  return transactionShape(
    plan.split.routes.map((route) =>
      route.hops.map((hop) => ({
        protocol: hop.pool.protocol,
        ticksCrossed: hop.ticksCrossed,
        wordsCrossed: hop.wordsCrossed,
        tokenIn: hop.tokenIn,
        tokenOut: hop.tokenOut,
      })),
    ),
    {
      nativeIn: ends.nativeIn,
      nativeOut: ends.nativeOut,
      legsPayRecipient: plan.legsPayRecipient,
      feeOnTransferHops: feeOnTransferHops(plan, ends.unsure, simulated),
      freshRecipient: ends.freshRecipient,
    },
  )
}

/** A plan's gas units by the network's gas model. */
export function planGas(
  plan: QuotePlan,
  ends: PlanEnds,
  units: GasUnits,
  simulated?: SimulatedSplit,
): bigint {
  return shapeGas(planShape(plan, ends, simulated), units)
}

/**
 * Hops that move a token taking a fee on transfer, each paying the fee's own writes: where the
 * simulation paid less than the pools' math (a fee was taken), the hops moving an end token not
 * seen plain, and the router's sweep when the output is one of them. Without a simulation, none.
 */
function feeOnTransferHops(
  plan: QuotePlan,
  unsure: readonly Address[],
  simulated?: SimulatedSplit,
): number {
  if (!simulated || simulated.received >= plan.split.amountOut) return 0
  const moves = (hop: Hop) =>
    unsure.some((token) => sameToken(token, hop.tokenIn) || sameToken(token, hop.tokenOut))
  const hops = plan.split.routes.reduce(
    (count, route) => count + route.hops.filter(moves).length,
    0,
  )
  const lastOut = plan.split.routes[0]?.hops.at(-1)?.tokenOut
  const swept =
    plan.split.routes.length > 1 &&
    !plan.legsPayRecipient &&
    lastOut !== undefined &&
    unsure.some((token) => sameToken(token, lastOut))
  return hops + (swept ? 1 : 0)
}
