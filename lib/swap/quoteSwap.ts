import { type Address, formatUnits, parseUnits, toHex } from 'viem'
import { withCallBudget } from '../chain/callBudget'
import type { NetworkName } from '../networkNames'
import { DEFAULT_DEADLINE_SECONDS, isNative } from '../constants'
import { type BestRoute, bestRoute } from '../routing/quote/bestRoute'
import { readDecimals } from '../send/readHolding'
import { describeBestRoute, largestRoutePath } from './routeAnswer'
import { minimumOut, routeCall } from './routerCall'
import { quoteExactOut } from './quoteSwapExactOut'
import { type QuoteSwapParameters, routerTokens, type SwapQuote } from './swapShapes'

export type { QuoteSwapParameters, SwapQuote, SwapSides } from './swapShapes'
export { routerTokens } from './swapShapes'

export interface QuoteRouteParameters {
  network: NetworkName
  address0: Address
  address1: Address
  /** Base units of address0. */
  amountIn: bigint
  /** Who receives the output (the simulation measures what arrives there). */
  recipient: Address
  /** Also estimates the chosen route's call from this sender (see BestRouteParameters). */
  estimateFrom?: Address
  /** Awaited before any call past the first batch (see BestRouteParameters). */
  beforeMoreCalls?: Promise<unknown>
}

/** The best route for two sides as the client names them (bestRoute), the coin wrapped. */
export function quoteRoute({
  network,
  address0,
  address1,
  amountIn,
  recipient,
  estimateFrom,
  beforeMoreCalls,
}: QuoteRouteParameters): Promise<BestRoute> {
  const { tokenIn, tokenOut } = routerTokens(network, address0, address1)
  return bestRoute({
    network,
    tokenIn,
    tokenOut,
    amountIn,
    nativeIn: isNative(address0),
    nativeOut: isNative(address1),
    recipient,
    estimateFrom,
    ...(beforeMoreCalls && { beforeMoreCalls }),
  })
}

/**
 * The exact quote of what `recipient` receives on the best split over the network's V2 and V3
 * pools (bestRoute: DECISIONS §8.1), with the SwapRouter02 calldata that swaps to `recipient`.
 * Two RPC round trips when warm: the pools, gas price and block; then the simulation of the call.
 */
export function quoteSwap(parameters: QuoteSwapParameters): Promise<SwapQuote> {
  // Anonymous, with tokens the caller names: their code runs capped (DECISIONS §8.2).
  return withCallBudget(() =>
    parameters.type === 'exactOut' ? quoteExactOut(parameters) : quote(parameters),
  )
}

async function quote(parameters: QuoteSwapParameters): Promise<SwapQuote> {
  const { network, address0, address1, decimals0, decimals1, slippageBps, recipient } = parameters
  const amountIn = parseUnits(parameters.amount, decimals0)
  const best = await quoteRoute({ network, address0, address1, amountIn, recipient })
  // No simulation ran the tokens' code (a token whose balances the probe cannot set): each must
  // at least answer decimals() within the cap, else the quote is a 422, not the search's figure
  // for a token nobody could receive.
  if (!best.simulated) {
    await Promise.all(
      [address0, address1]
        .filter((token) => !isNative(token))
        .map((token) => readDecimals(network, token)),
    )
  }
  const amountOutMin = minimumOut(best.amountOut, slippageBps)
  const now = BigInt(Math.floor((parameters.now ?? new Date()).getTime() / 1000))
  const call = routeCall(best, {
    address0,
    address1,
    amountOutMin,
    recipient,
    deadline: now + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
  })
  return {
    quote: Number(formatUnits(best.amountOut, decimals1)),
    amount: Number(formatUnits(amountIn, decimals0)),
    decimal: decimals1,
    amountOutMin: toHex(amountOutMin),
    path: largestRoutePath(best),
    gasPriceWei: Number(best.gasPrice),
    calldata: call.data,
    value: toHex(call.value),
    ...describeBestRoute(best),
  }
}
