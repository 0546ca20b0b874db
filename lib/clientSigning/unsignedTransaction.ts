import { type Address, getAddress, type Hex, toHex } from 'viem'
import { getBalance } from 'viem/actions'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import type { SendContext } from '../send/sendContext'

export type TransactionKind = 'approval' | 'swap' | 'transfer'

/** A transaction the service built and the wallet signs; recorded as a trade of `kind`. */
export interface PlannedTransaction {
  kind: TransactionKind
  /** What it does, in words a wallet can show: `approve 40 LINK for the router`. */
  description: string
  to: Address
  data: Hex
  value: bigint
}

/** The unsigned EIP-1559 transaction as JSON: quantities in hex, as JSON-RPC writes them. */
export interface UnsignedTransaction {
  kind: TransactionKind
  description: string
  type: 'eip1559'
  chainId: number
  nonce: number
  gas: Hex
  maxFeePerGas: Hex
  maxPriorityFeePerGas: Hex
  to: Address
  data: Hex
  value: Hex
}

export interface UnsignedSequenceParameters {
  network: NetworkName
  context: SendContext
  /** The owner's native balance, already read. */
  nativeBalance: bigint
  transactions: PlannedTransaction[]
  /** Their gas limits, in order. */
  gas: bigint[]
}

export interface UnsignedSequence {
  transactions: UnsignedTransaction[]
  /**
   * What the wallet must hold in the native coin for the value and the fee cap of every
   * transaction, as the node demands at broadcast, when its balance is short of it.
   */
  nativeShortfall?: { required: bigint; available: bigint }
}

/** The native balance, for routes whose batch of reads did not include it. */
export function readNativeBalance(network: NetworkName, owner: Address): Promise<bigint> {
  return onChain(network, () => getBalance(publicClient(network), { address: owner }))
}

/**
 * Fees and consecutive nonces from the wallet's pending nonce for the planned transactions, in
 * order, with their gas limits. A native balance short of their value and fee cap is reported
 * (the preview names it), not refused: the wallet may be funded before it signs.
 */
export function unsignedSequence({
  network,
  context,
  nativeBalance,
  transactions,
  gas,
}: UnsignedSequenceParameters): UnsignedSequence {
  const required = transactions.reduce(
    (sum, transaction, index) =>
      sum + transaction.value + (gas[index] ?? 0n) * context.maxFeePerGas,
    0n,
  )
  const { chainId } = loadChainConfig(network)
  return {
    transactions: transactions.map((transaction, index) => ({
      kind: transaction.kind,
      description: transaction.description,
      type: 'eip1559',
      chainId,
      nonce: context.nonce + index,
      gas: toHex(gas[index] ?? 0n),
      maxFeePerGas: toHex(context.maxFeePerGas),
      maxPriorityFeePerGas: toHex(context.maxPriorityFeePerGas),
      to: getAddress(transaction.to),
      data: transaction.data,
      value: toHex(transaction.value),
    })),
    ...(nativeBalance < required && { nativeShortfall: { required, available: nativeBalance } }),
  }
}
