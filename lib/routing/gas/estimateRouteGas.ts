import type { Address } from 'viem'
import { onChain } from '../../chain/chainError'
import { estimateCallGas, type GasEstimate, settledEstimate } from '../../chain/estimateCallGas'
import { type SplitLeg, swapRouterCall } from '../../chain/swapRouterCall'
import { DEFAULT_DEADLINE_SECONDS } from '../../constants'
import type { NetworkName } from '../../networkNames'

export interface EstimateRouteGasParameters {
  network: NetworkName
  /** The wallet that would send the swap. */
  from: Address
  router: Address
  legs: readonly SplitLeg[]
  recipient: Address
  nativeIn: boolean
  nativeOut: boolean
  legsPayRecipient: boolean
}

/**
 * A route's gas as the node estimates it: its router call with a minimum of 0 (the amount is not
 * known until the simulation beside it answers), settled either way. The send pipeline turns it
 * into the limit of the call finally sent (lib/send/gasLimit.ts limitFrom); a failure (short of
 * an allowance, say) is kept, for the swap to estimate its exact call instead.
 */
export function estimateRouteGas(parameters: EstimateRouteGasParameters): Promise<GasEstimate> {
  const { network, from, router, legs, recipient, nativeIn, nativeOut, legsPayRecipient } =
    parameters
  const call = swapRouterCall({
    legs,
    amountOutMin: 0n,
    recipient,
    deadline: BigInt(Math.floor(Date.now() / 1000) + DEFAULT_DEADLINE_SECONDS),
    nativeIn,
    nativeOut,
    legsPayRecipient,
  })
  return settledEstimate(
    onChain(network, () => estimateCallGas({ network, from, to: router, ...call })),
    call.data,
  )
}
