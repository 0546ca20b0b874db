import { type Address, formatUnits, parseUnits, toHex } from 'viem'
import { DEFAULT_DEADLINE_SECONDS, isNative } from '../constants'
import { type BestRouteExactOut, bestRouteExactOut } from '../routing/quote/bestRouteExactOut'
import { readDecimals } from '../send/readHolding'
import { type QuoteSwapParameters, routerTokens, type SwapQuote } from './swapShapes'
import { describeBestRoute, largestRoutePath } from './routeAnswer'
import { maximumIn, routeCallExactOut } from './routerCallExactOut'

export interface QuoteRouteExactOutParameters {
  network: QuoteSwapParameters['network']
  address0: Address
  address1: Address
  /** Base units of address1 that must arrive. */
  amountOut: bigint
  recipient: Address
  beforeMoreCalls?: Promise<unknown>
}

/** The exact-output route for two sides as the client names them (bestRouteExactOut). */
export function quoteRouteExactOut({
  network,
  address0,
  address1,
  amountOut,
  recipient,
  beforeMoreCalls,
}: QuoteRouteExactOutParameters): Promise<BestRouteExactOut> {
  const { tokenIn, tokenOut } = routerTokens(network, address0, address1)
  return bestRouteExactOut({
    network,
    tokenIn,
    tokenOut,
    amountOut,
    nativeIn: isNative(address0),
    nativeOut: isNative(address1),
    recipient,
    ...(beforeMoreCalls && { beforeMoreCalls }),
  })
}

/**
 * An exact-output quote (DECISIONS §10.1): exactly `amount` of token1 arrives; the answer's
 * `amountIn` is what the route takes, `amountInMax` the most the call may take (slippage), the
 * calldata SwapRouter02's exact-output multicall. `quote` is then `amount` and `amount` the input
 * in whole units of token0, so the seed's two fields keep their sides.
 */
export async function quoteExactOut(parameters: QuoteSwapParameters): Promise<SwapQuote> {
  const { network, address0, address1, decimals0, decimals1, slippageBps, recipient } = parameters
  const amountOut = parseUnits(parameters.amount, decimals1)
  const best = await quoteRouteExactOut({ network, address0, address1, amountOut, recipient })
  if (!best.simulated) {
    await Promise.all(
      [address0, address1]
        .filter((token) => !isNative(token))
        .map((token) => readDecimals(network, token)),
    )
  }
  const amountInMax = maximumIn(best.amountIn, slippageBps)
  const now = BigInt(Math.floor((parameters.now ?? new Date()).getTime() / 1000))
  const call = routeCallExactOut(best, {
    address0,
    address1,
    amountInMax,
    recipient,
    deadline: now + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
  })
  return {
    quote: Number(formatUnits(best.amountOut, decimals1)),
    amount: Number(formatUnits(best.amountIn, decimals0)),
    decimal: decimals1,
    amountOutMin: toHex(amountOut),
    path: largestRoutePath(best),
    gasPriceWei: Number(best.gasPrice),
    calldata: call.data,
    value: toHex(call.value),
    ...describeBestRoute(best),
    amountIn: best.amountIn.toString(),
    amountInMax: toHex(amountInMax),
  }
}
