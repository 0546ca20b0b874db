import { type Address, type Hex, isAddressEqual } from 'viem'
import type { GasEstimate } from '../chain/estimateCallGas'
import { loadChainConfig } from '../config'
import { Unprocessable } from '../errors'
import type { NetworkName } from '../networkNames'
import type { BestRoute } from '../routing/quote/bestRoute'
import type { Holding } from '../send/readHolding'
import type { Fees, SendContext } from '../send/sendContext'
import { routerToken } from './nativeCoin'
import type { BestRouteAnswer } from './routeAnswer'

// What a swap's quote and plan take and give, both ways (exact input and exact output): apart
// from quoteSwap and swapPlan so that their exact-output halves import them without a cycle.

export interface SwapSides {
  network: NetworkName
  /** exactIn (the default): `amount` of token0 goes in; exactOut: `amount` of token1 arrives. */
  type?: 'exactIn' | 'exactOut'
  /** Decimal string in whole units of token0 (of token1 for exactOut). */
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

/** The seed's quote fields (DECISIONS §4) and the route that shows its work (§8.1). */
export interface SwapQuote extends BestRouteAnswer {
  /** Amount out in whole units of token1 (a JSON number: `amountOut` is the exact figure). */
  quote: number
  amount: number
  decimal: number
  amountOutMin: Hex
  /** The tokens of the largest route of the split. */
  path: Address[]
  gasPriceWei: number
  calldata: Hex
  value: Hex
  /** Exact output only: what the route takes of token0 (base units, decimal string). */
  amountIn?: string
  /** Exact output only: the most the call may take of token0, slippage included. */
  amountInMax?: Hex
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

export interface PlanSwapParameters extends SwapSides {
  /** The wallet that pays and receives. */
  owner: Address
  /** Plan on when the balance is short (prepare's preview names it) instead of a 422. */
  reportShortBalance?: boolean
  /** Exact output: the slippage sets the most the swap may take (amountInMax). */
  slippageBps?: number
}

/** What a swap needs once its reads are done and checked: signed here or on the client. */
export interface SwapPlan {
  /** What the swap takes of token0: exact output, the most it may take (amountInMax). */
  amountIn: bigint
  /** The SwapRouter02 the swap calls and the allowance is given to. */
  router: Address
  best: BestRoute
  context: SendContext
  fees: Fees
  holding: Holding
  /** The approvals a short allowance needs, in order (approvalAmounts). */
  approvals: bigint[]
  /**
   * The swap's estimate along the chosen route, made beside its simulation (gasFor turns it into
   * the limit of the final call); undefined when approvals come first (the estimate reverted
   * short of an allowance) or when it failed: the exact call is estimated then, before it is
   * signed.
   */
  estimate?: GasEstimate
}
