import { getGasPrice } from 'viem/actions'
import {
  type Address,
  formatUnits,
  getAddress,
  type Hex,
  isAddressEqual,
  parseUnits,
  toHex,
} from 'viem'
import { exactAmountOut, type ExactAmountOutReturnType } from '../chain/bestAmountOut'
import { withCallBudget } from '../chain/callBudget'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig, type NetworkName } from '../config'
import { Unprocessable } from '../errors'
import { routerToken } from './nativeCoin'
import { DEFAULT_DEADLINE_SECONDS, isNative } from '../constants'
import { readDecimals } from '../send/readHolding'
import { minimumOut, routerCall } from './routerCall'

export interface SwapSides {
  network: NetworkName
  /** Decimal string in whole units of token0. */
  amount: string
  address0: Address
  decimals0: number
  address1: Address
  decimals1: number
}

export interface QuoteSwapParameters extends SwapSides {
  slippageBps: number
  /** Receives the output in the returned calldata. */
  recipient: Address
  deadlineSeconds?: number
  now?: Date
}

export interface SwapQuote {
  /** Amount out in whole units of token1. */
  quote: number
  amount: number
  decimal: number
  amountOutMin: Hex
  path: Address[]
  gasPriceWei: number
  calldata: Hex
  value: Hex
  /**
   * A token on the path takes a fee on transfer, so `calldata` uses the router's
   * ...SupportingFeeOnTransferTokens function (not part of the response body).
   */
  feeOnTransfer: boolean
}

export interface QuoteRouteParameters {
  network: NetworkName
  address0: Address
  address1: Address
  /** Base units of address0. */
  amountIn: bigint
  /** Who receives the output (the simulation measures what arrives there). */
  recipient: Address
}

/**
 * The tokens the router swaps between for two sides, the wrapped coin standing for the native
 * coin; the coin and its wrapped token are one asset (422).
 */
export function routerTokens(
  network: NetworkName,
  address0: Address,
  address1: Address,
): { tokenIn: Address; tokenOut: Address } {
  const { wrappedNative } = loadChainConfig(network)
  const tokenIn = routerToken(address0, wrappedNative)
  const tokenOut = routerToken(address1, wrappedNative)
  if (isAddressEqual(tokenIn, tokenOut)) {
    throw new Unprocessable('the native coin and its wrapped token are one asset: nothing to swap')
  }
  return { tokenIn, tokenOut }
}

/**
 * The best path's exact output for the two sides (exactAmountOut), the native coin standing for
 * its wrapped token on the router; the coin and its wrapped token are one asset (422).
 */
export async function quoteRoute({
  network,
  address0,
  address1,
  amountIn,
  recipient,
}: QuoteRouteParameters): Promise<ExactAmountOutReturnType> {
  const { tokenIn, tokenOut } = routerTokens(network, address0, address1)
  return exactAmountOut({
    network,
    amountIn,
    tokenIn,
    tokenOut,
    nativeIn: isNative(address0),
    nativeOut: isNative(address1),
    recipient,
  })
}

/**
 * The exact quote of what `recipient` receives (exactAmountOut: every candidate path simulated
 * with its real transfers, fees on transfer included) and the node's gas price: one RPC round
 * trip, two the first time the container meets the input token (its balance slot first). The
 * calldata swaps to `recipient`, with the fee-on-transfer router function when a fee was seen.
 */
export function quoteSwap(parameters: QuoteSwapParameters): Promise<SwapQuote> {
  // Anonymous, with tokens the caller names: their code runs capped (DECISIONS §8.2).
  return withCallBudget(() => quote(parameters))
}

async function quote(parameters: QuoteSwapParameters): Promise<SwapQuote> {
  const { network, address0, address1, decimals0, decimals1, slippageBps, recipient } = parameters
  const amountIn = parseUnits(parameters.amount, decimals0)
  const client = publicClient(network)
  const [{ amountOut, path, feeOnTransfer, simulated }, gasPrice] = await Promise.all([
    quoteRoute({ network, address0, address1, amountIn, recipient }),
    onChain(network, () => getGasPrice(client)),
  ])
  // No simulation ran the tokens' code (a token that refused the probe, or burned its gas): each
  // must at least answer decimals() within the cap, else the quote is a 422, not the router's
  // figure for a token nobody could receive.
  if (!simulated) {
    await Promise.all(
      [address0, address1]
        .filter((token) => !isNative(token))
        .map((token) => readDecimals(network, token)),
    )
  }
  const amountOutMin = minimumOut(amountOut, slippageBps)
  const now = BigInt(Math.floor((parameters.now ?? new Date()).getTime() / 1000))
  const call = routerCall({
    address0,
    address1,
    amountIn,
    amountOutMin,
    path,
    recipient,
    deadline: now + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
    feeOnTransfer,
  })
  return {
    quote: Number(formatUnits(amountOut, decimals1)),
    amount: Number(formatUnits(amountIn, decimals0)),
    decimal: decimals1,
    amountOutMin: toHex(amountOutMin),
    path: path.map((address) => getAddress(address)),
    gasPriceWei: Number(gasPrice),
    calldata: call.data,
    value: toHex(call.value),
    feeOnTransfer,
  }
}
