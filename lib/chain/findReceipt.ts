import { getTransactionReceipt } from 'viem/actions'
import type { ChainClient } from './clients'
import { type Hash, TransactionReceiptNotFoundError, type TransactionReceipt } from 'viem'

export interface FindReceiptParameters {
  hash: Hash
}

export type FindReceiptReturnType = TransactionReceipt | undefined

/** The receipt of a mined transaction; undefined while it is unknown or not yet mined. */
export async function findReceipt(
  client: ChainClient,
  { hash }: FindReceiptParameters,
): Promise<FindReceiptReturnType> {
  try {
    return await getTransactionReceipt(client, { hash })
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return undefined
    throw error
  }
}
