import type { Address, Hex } from 'viem'
import { legsOf, swapRouterCall } from '../chain/swapRouterCall'
import { isNative } from '../constants'
import type { BestRoute } from '../routing/quote/bestRoute'

export interface RouteCallParameters {
  /** As the client named them: the native sentinel wraps or unwraps the coin. */
  address0: Address
  address1: Address
  amountOutMin: bigint
  recipient: Address
  /** Epoch seconds. */
  deadline: bigint
}

export interface RouterCall {
  data: Hex
  /** Wei sent with the call: the amount in when the native coin goes in, else 0. */
  value: bigint
}

/**
 * The SwapRouter02 call that swaps exactly the route's input along its split (swapRouterCall):
 * the native coin wrapped from the call's value, or unwrapped to the recipient; in the shape the
 * route was simulated in (legs paying the recipient, each its share of the minimum by its
 * simulated amount, where bestRoute chose that).
 */
export function routeCall(best: BestRoute, parameters: RouteCallParameters): RouterCall {
  return swapRouterCall({
    legs: legsOf(best),
    amountOutMin: parameters.amountOutMin,
    recipient: parameters.recipient,
    deadline: parameters.deadline,
    nativeIn: isNative(parameters.address0),
    nativeOut: isNative(parameters.address1),
    legsPayRecipient: best.legsPayRecipient,
  })
}

/** floor(out × (10000 − slippageBps) / 10000). */
export function minimumOut(amountOut: bigint, slippageBps: number): bigint {
  return (amountOut * BigInt(10_000 - slippageBps)) / 10_000n
}
