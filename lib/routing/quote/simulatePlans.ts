import type { Address, Hex } from 'viem'
import type { GasEstimate } from '../../chain/estimateCallGas'
import { legsOf } from '../../chain/swapRouterCall'
import type { GasUnits } from '../../config'
import type { NetworkName } from '../../networkNames'
import { estimateRouteGas } from '../gas/estimateRouteGas'
import { gasCost } from '../gas/gasModel'
import { type SimulatedSplit, simulateSplit } from '../simulate/simulateSplit'
import type { QuotePlan } from './feeSafePlans'
import { planGas, type PlanEnds } from './planGas'

export interface SimulatePlansParameters {
  network: NetworkName
  router: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  nativeIn: boolean
  nativeOut: boolean
  /** Receives the output in the simulation (the probe for an anonymous quote). */
  to: Address
  balanceSlot: Hex | null
  blockNumber: bigint
  /** Also estimates each plan's router call sent from this address (estimateRouteGas). */
  estimateFrom?: Address
}

/** A plan's simulation (undefined where it reverted) and, where asked, its call's estimate. */
export type PlanOutcome = [SimulatedSplit | undefined, GasEstimate | undefined]

/**
 * Every plan's router call simulated by RouterProbe from a holder of exactly `amountIn`, so what
 * arrives is what the recipient receives, each estimated beside it where asked: one batch.
 */
export function simulatePlans(
  plans: readonly QuotePlan[],
  parameters: SimulatePlansParameters,
): Promise<PlanOutcome[]> {
  const { network, router, to, nativeIn, nativeOut, estimateFrom } = parameters
  return Promise.all(
    plans.map((plan) =>
      Promise.all([
        simulateSplit({
          network,
          router,
          legs: legsOf(plan.split),
          tokenIn: parameters.tokenIn,
          tokenOut: parameters.tokenOut,
          amountIn: parameters.amountIn,
          nativeIn,
          nativeOut,
          to,
          balanceSlot: parameters.balanceSlot,
          blockNumber: parameters.blockNumber,
          expectedGas: plan.split.gas,
          legsPayRecipient: plan.legsPayRecipient,
        }),
        estimateFrom
          ? estimateRouteGas({
              network,
              from: estimateFrom,
              router,
              legs: legsOf(plan.split),
              recipient: to,
              nativeIn,
              nativeOut,
              legsPayRecipient: plan.legsPayRecipient,
            })
          : undefined,
      ]),
    ),
  )
}

/** The chosen plan: what it delivered when simulated, and its call's estimate where made. */
export interface SimulatedPlan {
  plan: QuotePlan
  simulated: SimulatedSplit
  estimate: GasEstimate | undefined
}

/**
 * The plan whose simulation delivered most net of gas by the model (the earliest on a tie: the
 * router's sweep before the legs paying the recipient); undefined when every one reverted.
 */
export function bestSimulated(
  plans: readonly QuotePlan[],
  outcomes: readonly PlanOutcome[],
  ends: PlanEnds,
  units: GasUnits,
): SimulatedPlan | undefined {
  let chosen: { index: number; net: bigint } | undefined
  outcomes.forEach(([simulated], index) => {
    const plan = plans[index]
    if (!simulated || !plan) return
    const net = simulated.received - gasCost(planGas(plan, ends, units, simulated), plan.gasPrice)
    if (!chosen || net > chosen.net) chosen = { index, net }
  })
  const plan = chosen && plans[chosen.index]
  const [simulated, estimate] = (chosen && outcomes[chosen.index]) ?? []
  return plan && simulated ? { plan, simulated, estimate } : undefined
}
