import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client'
import { clientNonceKey, clientNoncePartition, issuedNonceSortKey, usedNonceKey } from './keys'
import type { TransactItem } from './session'

export interface WalletNonce {
  nonce: number
  /** Whole seconds: the message's `Issued At` is rebuilt from it. */
  issuedAt: Date
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000)

/**
 * Keeps a nonce among those issued to this client for this address (DECISIONS §10.4), for a login
 * that does not name its nonce: one PutItem in the client's own partition, expiring with the
 * nonce. Nothing is kept per address, so no other client's requests can push it out; a client
 * holds at most its own nonce budget's worth (30 a minute, 5 minutes).
 */
export async function storeClientNonce(
  address: string,
  sourceIp: string,
  nonce: WalletNonce,
  { lifetimeSeconds, requestedAt }: { lifetimeSeconds: number; requestedAt: Date },
): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...clientNonceKey(address, sourceIp, { nonce: nonce.nonce, requestedAt }),
        type: 'Nonce',
        nonce: nonce.nonce,
        issuedAt: nonce.issuedAt.toISOString(),
        expiresAt: epochSeconds(nonce.issuedAt) + lifetimeSeconds,
      },
    }),
  )
}

/**
 * The newest `limit` nonces issued to this client for this address after `issuedAfter` (whole
 * seconds), newest first (in the order the requests came): one strongly consistent Query of the
 * client's partition, reading at most `limit` items.
 */
export async function listClientNonces(
  address: string,
  sourceIp: string,
  { issuedAfter, limit }: { issuedAfter: Date; limit: number },
): Promise<WalletNonce[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      // From the first second after `issuedAfter`'s: a nonce is issued in whole seconds.
      KeyConditionExpression: 'pk = :pk AND sk >= :from',
      ExpressionAttributeValues: {
        ':pk': clientNoncePartition(address, sourceIp),
        ':from': issuedNonceSortKey((epochSeconds(issuedAfter) + 1) * 1000),
      },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: true,
    }),
  )
  return Items.map((item) => ({
    nonce: Number(item.nonce),
    issuedAt: new Date(String(item.issuedAt)),
  }))
}

/**
 * The transaction item that marks a nonce used, failing the transaction when it already is: a
 * nonce signs in once. The mark lasts as long as the nonce could be presented (`expiresAt`).
 */
export function useNonceItem(address: string, nonce: number, expiresAt: number): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...usedNonceKey(address, nonce), type: 'UsedNonce', expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}
