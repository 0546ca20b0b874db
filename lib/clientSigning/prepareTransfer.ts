import { formatUnits, getAddress } from 'viem'
import { isNative, NATIVE_COIN } from '../constants'
import { Unprocessable } from '../errors'
import { type PlanTransferParameters, planTransfer } from '../transfer/transferPlan'
import { readKnownTokens } from './knownTokens'
import {
  readNativeBalance,
  unsignedSequence,
  type UnsignedTransaction,
} from './unsignedTransaction'

/** The `{key}` route's body with the signed-in wallet: the same plan, signed elsewhere. */
export type PrepareTransferParameters = PlanTransferParameters

/**
 * The transaction the wallet signs for a transfer: the token's `transfer`, or a plain value
 * transfer of the native coin. The `{key}` route's reads (with the native balance and the catalog
 * lookup beside them, and the estimate when the decimals are known): nothing is signed, sent or
 * recorded.
 */
export async function prepareTransfer(
  parameters: PrepareTransferParameters,
): Promise<{ transactions: UnsignedTransaction[] }> {
  const { network, owner, to } = parameters
  const token = parameters.token ?? NATIVE_COIN
  const [plan, nativeBalance, tokens] = await Promise.all([
    planTransfer(parameters),
    isNative(token) ? undefined : readNativeBalance(network, owner),
    readKnownTokens(network, [token]),
  ])
  if (!tokens.isKnown(token)) {
    throw new Unprocessable(
      `${getAddress(token)} is not a catalog token on ${network}: its transfer cannot be submitted (the {key} route transfers any token)`,
    )
  }
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
