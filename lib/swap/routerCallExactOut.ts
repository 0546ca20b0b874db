import type { Address } from 'viem'
import { legMinimums, legsOf } from '../chain/swapRouterCall'
import { swapRouterCallExactOut } from '../chain/swapRouterCallExactOut'
import { isNative } from '../constants'
import type { BestRouteExactOut } from '../routing/quote/bestRouteExactOut'
import type { RouterCall } from './routerCall'

export interface RouteCallExactOutParameters {
  /** As the client named them: the native sentinel wraps or unwraps the coin. */
  address0: Address
  address1: Address
  /** The most the call may take of token0 (maximumIn). */
  amountInMax: bigint
  recipient: Address
  /** Epoch seconds. */
  deadline: bigint
}

/** ceil(in × (10000 + slippageBps) / 10000): exact output's mirror of minimumOut. */
export function maximumIn(amountIn: bigint, slippageBps: number): bigint {
  const scaled = amountIn * BigInt(10_000 + slippageBps)
  return (scaled + 9_999n) / 10_000n
}

/**
 * The SwapRouter02 call that pays exactly the route's output along its split
 * (swapRouterCallExactOut), `amountInMax` shared among the legs in proportion to what each takes
 * (legMinimums' rule: they sum to it, each at least its leg's input): the native coin sent as the
 * legs' maximums with the rest refunded, or unwrapped to the recipient.
 */
export function routeCallExactOut(
  best: BestRouteExactOut,
  parameters: RouteCallExactOutParameters,
): RouterCall {
  const legs = legsOf(best)
  const maximums = legMinimums(
    parameters.amountInMax,
    legs.map((leg) => leg.amountIn),
  )
  return swapRouterCallExactOut({
    legs: legs.map((leg, index) => ({
      hops: leg.hops,
      amountOut: best.legsWanted[index] ?? 0n,
      amountInMax: maximums[index] ?? 0n,
    })),
    recipient: parameters.recipient,
    deadline: parameters.deadline,
    nativeIn: isNative(parameters.address0),
    nativeOut: isNative(parameters.address1),
  })
}
