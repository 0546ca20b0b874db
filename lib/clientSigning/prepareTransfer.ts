import { formatUnits, getAddress } from 'viem'
import { withCallBudget } from '../chain/callBudget'
import { isNative, NATIVE_COIN } from '../constants'
import { type PlanTransferParameters, planTransfer } from '../transfer/transferPlan'
import { type KnownTokens, requireKnownTokens } from './knownTokens'
import {
  readNativeBalance,
  unsignedSequence,
  type UnsignedTransaction,
} from './unsignedTransaction'
import { withNativeShortfall } from '../preview/previewChecks'
import type { Preview } from '../preview/previewSequence'
import { withHeadroom } from '../send/gasLimit'
import { previewTransfer } from '../transfer/transferPreview'

/** The `{key}` route's body with the signed-in wallet: the same plan, signed elsewhere. */
export type PrepareTransferParameters = PlanTransferParameters

/**
 * The transaction the wallet signs for a transfer: the token's `transfer`, or a plain value
 * transfer of the native coin. A token outside the catalog is refused before any chain call (one
 * BatchGetItem); then the `{key}` route's reads (with the native balance beside them, and the
 * estimate when the decimals are known), then the transfer simulated on the block they read (its
 * preview, and its gas when no estimate came), within a request's budget of capped calls: nothing
 * is signed, sent or recorded. A short balance or a failing simulation is a preview's issue.
 */
export interface PreparedTransfer {
  transactions: UnsignedTransaction[]
  /** What the transfer would do, simulated at the block its reads saw (DECISIONS §10.2). */
  preview: Preview
}

export async function prepareTransfer(
  parameters: PrepareTransferParameters,
): Promise<PreparedTransfer> {
  const tokens = await requireKnownTokens(parameters.network, [parameters.token ?? NATIVE_COIN])
  return withCallBudget(() => prepareKnownTransfer(parameters, tokens))
}

async function prepareKnownTransfer(
  parameters: PrepareTransferParameters,
  tokens: KnownTokens,
): Promise<PreparedTransfer> {
  const { network, owner, to } = parameters
  const token = parameters.token ?? NATIVE_COIN
  const [plan, nativeBalance] = await Promise.all([
    planTransfer({ ...parameters, reportShortBalance: true }),
    isNative(token) ? undefined : readNativeBalance(network, owner),
  ])
  const amount = `${formatUnits(plan.amount, plan.holding.decimals)} ${tokens.label(token)}`
  const { preview, gasNeeded } = await previewTransfer({ network, owner, to, plan })
  const { transactions, nativeShortfall } = unsignedSequence({
    network,
    context: plan.context,
    nativeBalance: nativeBalance ?? plan.holding.balance,
    transactions: [
      {
        kind: 'transfer',
        description: `${plan.native ? 'send' : 'transfer'} ${amount} to ${getAddress(to)}`,
        to: plan.transaction.to,
        data: plan.transaction.data ?? '0x',
        value: plan.transaction.value ?? 0n,
      },
    ],
    gas: [plan.gas ?? withHeadroom(gasNeeded[0] ?? 0n)],
  })
  return { transactions, preview: withNativeShortfall(preview, nativeShortfall) }
}
