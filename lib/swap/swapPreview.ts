import type { Address } from 'viem'
import { isNative } from '../constants'
import type { NetworkName } from '../networkNames'
import {
  type PreviewResult,
  previewSequence,
  type PreviewTransaction,
} from '../preview/previewSequence'
import type { SwapPlan } from './swapPlan'

export interface PreviewSwapParameters {
  network: NetworkName
  owner: Address
  address0: Address
  address1: Address
  plan: SwapPlan
  /** The approvals (if any) and the swap, in order. */
  transactions: readonly PreviewTransaction[]
  amountOutMin: bigint
}

/** A swap's approvals and call simulated at its quote's block (previewSequence). */
export function previewSwap({
  network,
  owner,
  address0,
  address1,
  plan,
  transactions,
  amountOutMin,
}: PreviewSwapParameters): Promise<PreviewResult> {
  return previewSequence({
    network,
    owner,
    transactions,
    blockNumber: plan.best.blockNumber,
    need: {
      token: address0,
      amount: plan.amountIn,
      balance: plan.holding.balance,
      ...(!isNative(address0) && { spender: plan.router, allowance: plan.holding.allowance }),
    },
    holders: [plan.router],
    tokens: [address0, address1],
    minimumOut: { token: address1, amount: amountOutMin },
  })
}
