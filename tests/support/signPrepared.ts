import type { Address, Hex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { UnsignedTransaction } from '../../lib/clientSigning/unsignedTransaction'

// What a wallet app does with the prepare routes' answer: sign each transaction with a viem local
// account (docs/trading.md, "Signing on the client"), in order, and send the hex to the submit route.

/** One transaction of a prepare route's `result.transactions`. */
export type PreparedTransaction = UnsignedTransaction

/** Signs one prepared transaction, with `changes` applied first (a tampering test's edits). */
export function signPrepared(
  account: PrivateKeyAccount,
  transaction: PreparedTransaction,
  changes: Partial<{ chainId: number; nonce: number; to: Address; data: Hex; value: bigint }> = {},
): Promise<Hex> {
  return account.signTransaction({
    type: 'eip1559',
    chainId: changes.chainId ?? transaction.chainId,
    nonce: changes.nonce ?? transaction.nonce,
    gas: BigInt(transaction.gas),
    maxFeePerGas: BigInt(transaction.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(transaction.maxPriorityFeePerGas),
    to: changes.to ?? transaction.to,
    data: changes.data ?? transaction.data,
    value: changes.value ?? BigInt(transaction.value),
  })
}

/** Signs every prepared transaction as it is. */
export function signAll(
  account: PrivateKeyAccount,
  transactions: readonly PreparedTransaction[],
): Promise<Hex[]> {
  return Promise.all(transactions.map((transaction) => signPrepared(account, transaction)))
}
