import type { Address } from 'viem'
import type { NetworkName } from '../networkNames'
import {
  type PreviewResult,
  previewSequence,
  type PreviewTransaction,
} from '../preview/previewSequence'
import type { TransferPlan } from './transferPlan'

export interface PreviewTransferParameters {
  network: NetworkName
  owner: Address
  to: Address
  plan: TransferPlan
}

/** A transfer simulated at the block its plan read (previewSequence). */
export function previewTransfer({
  network,
  owner,
  to,
  plan,
}: PreviewTransferParameters): Promise<PreviewResult> {
  const transaction: PreviewTransaction = {
    kind: 'transfer',
    to: plan.transaction.to,
    data: plan.transaction.data ?? '0x',
    value: plan.transaction.value ?? 0n,
  }
  return previewSequence({
    network,
    owner,
    transactions: [transaction],
    blockNumber: plan.context.blockNumber,
    need: { token: plan.token, amount: plan.amount, balance: plan.holding.balance },
    holders: [to],
    tokens: [plan.token],
  })
}
