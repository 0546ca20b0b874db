import { isExactOut } from '../routing/quote/bestRouteExactOut'
import { type Address, encodeFunctionData, erc20Abi, formatUnits, type Hex, toHex } from 'viem'
import { withCallBudget } from '../chain/callBudget'
import { isNative } from '../constants'
import type { SwapSides } from '../swap/quoteSwap'
import { type BestRouteAnswer, describeBestRoute, largestRoutePath } from '../swap/routeAnswer'
import { gasFor, planMinimumOut, planSwap, quotedIn, swapCallOf } from '../swap/swapPlan'
import { type KnownTokens, requireKnownTokens } from './knownTokens'
import {
  type PlannedTransaction,
  readNativeBalance,
  unsignedSequence,
  type UnsignedTransaction,
} from './unsignedTransaction'
import { withNativeShortfall } from '../preview/previewChecks'
import type { Preview } from '../preview/previewSequence'
import { withHeadroom } from '../send/gasLimit'
import { previewSwap } from '../swap/swapPreview'
import { withSelfPermit } from '../swap/permit'
import { type PermitOffer, type PermitSignature, permitStep } from './preparePermit'

export interface PrepareSwapParameters extends SwapSides {
  /** The signed-in wallet: it signs, pays and receives. */
  owner: Address
  slippageBps: number
  deadlineSeconds?: number
  now?: Date
  /** A permit the wallet signed from a previous answer's `permit`: the swap starts with it. */
  permit?: PermitSignature
}

export interface PreparedSwap {
  transactions: UnsignedTransaction[]
  /**
   * Where the allowance is short and token0 has EIP-2612 permit, and no `permit` was sent: the
   * typed data to sign instead of the approvals, then prepare again with the signature.
   */
  permit?: PermitOffer
  /** What the transactions would do, simulated in order at the quote's block (DECISIONS §10.2). */
  preview: Preview
  /** The quote the swap was built from, with the route that shows its work (DECISIONS §8.1). */
  quote: BestRouteAnswer & {
    quote: number
    amount: number
    decimal: number
    amountOutMin: Hex
    path: Address[]
    /** Exact output: what the route takes, and the most the call may take. */
    amountIn?: string
    amountInMax?: Hex
  }
}

/**
 * The transactions the wallet signs for a swap, in order: when the router's allowance is short an
 * approval (the allowance reset to 0 first where it is not zero), then the swap, as the `{key}`
 * route would send them. Both tokens must be known (catalog, base tokens or the coin), checked
 * before any chain call (one BatchGetItem); then the `{key}` route's batch of reads (with the
 * native balance beside it; the swap's gas in it when no approval comes first); then the sequence
 * simulated at the quote's block, its preview (DECISIONS §10.2) and otherwise its gas, within a
 * request's budget of capped calls: nothing is signed, sent or recorded. A short balance or
 * allowance and a failing simulation are the preview's issues, not a refusal. Where the allowance
 * is short and token0 has EIP-2612, the answer offers the permit to sign; sent back signed, the
 * swap alone, its multicall starting with selfPermit (permitStep, docs/trading.md).
 */
export async function prepareSwap(parameters: PrepareSwapParameters): Promise<PreparedSwap> {
  const { network, address0, address1 } = parameters
  const tokens = await requireKnownTokens(network, [address0, address1])
  return withCallBudget(() => prepareKnownSwap(parameters, tokens))
}

async function prepareKnownSwap(
  parameters: PrepareSwapParameters,
  tokens: KnownTokens,
): Promise<PreparedSwap> {
  const { network, owner, address0, address1, decimals0, decimals1, slippageBps } = parameters
  const [read, nativeBalance] = await Promise.all([
    planSwap({ ...parameters, reportShortBalance: true }),
    isNative(address0) ? undefined : readNativeBalance(network, owner),
  ])
  // A permit offered, or a signed one verified (400 if not the wallet's for this very swap).
  const step = await permitStep({ ...parameters, plan: read })
  const { plan } = step
  const { router, amountIn, approvals } = plan
  const [label0, label1] = [tokens.label(address0), tokens.label(address1)]
  const approve = (amount: bigint): PlannedTransaction => ({
    kind: 'approval',
    description:
      amount === 0n
        ? `reset the router's ${label0} allowance to 0`
        : `approve ${formatUnits(amount, decimals0)} ${label0} for the router`,
    to: address0,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] }),
    value: 0n,
  })
  const amountOutMin = planMinimumOut(plan, slippageBps)
  const call = swapCallOf(plan, parameters)
  const permitted = step.kind === 'signed' ? `, with a permit of ${label0} for the router` : ''
  const swap: PlannedTransaction = {
    kind: 'swap',
    description: isExactOut(plan.best)
      ? `swap at most ${formatUnits(amountIn, decimals0)} ${label0} for exactly ${formatUnits(amountOutMin, decimals1)} ${label1}${permitted}`
      : `swap ${formatUnits(amountIn, decimals0)} ${label0} for at least ${formatUnits(amountOutMin, decimals1)} ${label1}${permitted}`,
    to: router,
    data: step.kind === 'signed' ? withSelfPermit(call.data, step.signed) : call.data,
    value: call.value,
  }
  const planned = [...approvals.map(approve), swap]
  const { preview, gasNeeded } = await previewSwap({
    network,
    owner,
    address0,
    address1,
    plan,
    transactions: planned,
    amountOutMin,
  })
  // Without approvals the swap's estimate came with the reads (planSwap); else (and with a permit,
  // whose plan has none) the simulation's.
  const swapGas = approvals.length === 0 ? gasFor(plan, swap.data) : undefined
  const gas = swapGas === undefined ? gasNeeded.map(withHeadroom) : [swapGas]
  const { transactions, nativeShortfall } = unsignedSequence({
    network,
    context: plan.context,
    nativeBalance: nativeBalance ?? plan.holding.balance,
    transactions: planned,
    gas,
  })
  return {
    transactions,
    ...(step.kind === 'offer' && { permit: step.offer }),
    preview: withNativeShortfall(preview, nativeShortfall),
    quote: {
      quote: Number(formatUnits(plan.best.amountOut, decimals1)),
      amount: Number(formatUnits(quotedIn(plan), decimals0)),
      decimal: decimals1,
      amountOutMin: toHex(amountOutMin),
      path: largestRoutePath(plan.best),
      ...describeBestRoute(plan.best),
      ...(isExactOut(plan.best) && {
        amountIn: plan.best.amountIn.toString(),
        amountInMax: toHex(amountIn),
      }),
    },
  }
}
