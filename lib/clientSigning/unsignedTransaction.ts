import { type Address, getAddress, type Hex, toHex } from 'viem'
import { getBalance } from 'viem/actions'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { Unprocessable } from '../errors'
import type { SendContext } from '../send/sendContext'
import { gasLimits } from './gasLimits'

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
  owner: Address
  context: SendContext
  /** The owner's native balance, already read (undefined: read it now). */
  nativeBalance: bigint | undefined
  transactions: PlannedTransaction[]
  /** Their gas limits when already estimated beside the reads (a single transaction). */
  gas?: bigint[]
}

/** The native balance, for routes whose batch of reads did not include it. */
export function readNativeBalance(network: NetworkName, owner: Address): Promise<bigint> {
  return onChain(network, () => getBalance(publicClient(network), { address: owner }))
}

/**
 * Gas limits, fees and consecutive nonces from the wallet's pending nonce for the planned
 * transactions, in order. The wallet must hold the value and the fee cap of every one of them,
 * as the node demands at broadcast: 422 here otherwise, before anything is signed.
 */
export async function unsignedSequence({
  network,
  owner,
  context,
  nativeBalance,
  transactions,
  gas: estimated,
}: UnsignedSequenceParameters): Promise<UnsignedTransaction[]> {
  const gas = estimated ?? (await gasLimits(network, owner, transactions))
  const cost = transactions.reduce(
    (sum, transaction, index) =>
      sum + transaction.value + (gas[index] ?? 0n) * context.maxFeePerGas,
    0n,
  )
  const balance = nativeBalance ?? (await readNativeBalance(network, owner))
  if (balance < cost) {
    const kinds = transactions.map((transaction) => transaction.kind).join(' and the ')
    throw new Unprocessable(
      `the wallet's ${network} native balance does not cover the ${kinds} and their gas`,
    )
  }
  const { chainId } = loadChainConfig(network)
  return transactions.map((transaction, index) => ({
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
  }))
}
