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

/** The `{key}` route's body with the signed-in wallet: the same plan, signed elsewhere. */
export type PrepareTransferParameters = PlanTransferParameters

/**
 * The transaction the wallet signs for a transfer: the token's `transfer`, or a plain value
 * transfer of the native coin. A token outside the catalog is refused before any chain call (one
 * BatchGetItem); then the `{key}` route's reads (with the native balance beside them, and the
 * estimate when the decimals are known), within a request's budget of capped calls: nothing is
 * signed, sent or recorded.
 */
export async function prepareTransfer(
  parameters: PrepareTransferParameters,
): Promise<{ transactions: UnsignedTransaction[] }> {
  const tokens = await requireKnownTokens(parameters.network, [parameters.token ?? NATIVE_COIN])
  return withCallBudget(() => prepareKnownTransfer(parameters, tokens))
}

async function prepareKnownTransfer(
  parameters: PrepareTransferParameters,
  tokens: KnownTokens,
): Promise<{ transactions: UnsignedTransaction[] }> {
  const { network, owner, to } = parameters
  const token = parameters.token ?? NATIVE_COIN
  const [plan, nativeBalance] = await Promise.all([
    planTransfer(parameters),
    isNative(token) ? undefined : readNativeBalance(network, owner),
  ])
  const amount = `${formatUnits(plan.amount, plan.holding.decimals)} ${tokens.label(token)}`
  const transactions = await unsignedSequence({
    network,
    owner,
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
    gas: plan.gas === undefined ? undefined : [plan.gas],
  })
  return { transactions }
}
