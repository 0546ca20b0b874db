import {
  type Hash,
  type PublicClient,
  TransactionReceiptNotFoundError,
  type TransactionReceipt,
} from 'viem'

export interface FindReceiptParameters {
  hash: Hash
}

export type FindReceiptReturnType = TransactionReceipt | undefined

/** The receipt of a mined transaction; undefined while it is unknown or not yet mined. */
export async function findReceipt(
  client: PublicClient,
  { hash }: FindReceiptParameters,
): Promise<FindReceiptReturnType> {
  try {
    return await client.getTransactionReceipt({ hash })
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return undefined
    throw error
  }
}
