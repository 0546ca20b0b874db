import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { batchGetItems } from './batchGet'
import { db, tableName } from './client'
import { KNOWN_WALLET_INDEX_PARTITION, knownWalletIndexKey, type TableKey, walletKey } from './keys'
import { useNonceItem } from './nonce'
import { queryAll } from './queryAll'
import { GSI1 } from './tableSchema'
import { putFamilyItem, putSessionItem, type Session, type TransactItem } from './session'
import { releaseItem } from './windowCounter'
import { isTransactionCanceled } from './writeConflicts'

/** The write that makes a wallet known (indexed, listed, attachable); idempotent. */
function knownWalletItem(address: string, now: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: walletKey(address),
      // The index keys on every login, so a wallet known before they existed is listed again.
      UpdateExpression:
        'SET #type = :type, address = :address, createdAt = if_not_exists(createdAt, :now), gsi1pk = :indexPk, gsi1sk = :indexSk',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'Wallet',
        ':address': address,
        ':now': now,
        ':indexPk': KNOWN_WALLET_INDEX_PARTITION,
        ':indexSk': knownWalletIndexKey(address).gsi1sk,
      },
    },
  }
}

// BatchWriteItem takes at most 25 items a call.
const BATCH_WRITE_MAX_ITEMS = 25

/**
 * Makes many wallets known at once (fixtures, the bench): BatchWriteItem, 25 a call, asking again
 * for what DynamoDB left unprocessed. Overwrites the wallet items (createdAt = now).
 */
export async function markWalletsKnown(addresses: readonly string[], now = new Date()) {
  for (let start = 0; start < addresses.length; start += BATCH_WRITE_MAX_ITEMS) {
    let pending = addresses.slice(start, start + BATCH_WRITE_MAX_ITEMS).map((address) => ({
      PutRequest: {
        Item: {
          ...walletKey(address),
          ...knownWalletIndexKey(address),
          type: 'Wallet',
          address,
          createdAt: now.toISOString(),
        },
      },
    }))
    while (pending.length > 0) {
      const { UnprocessedItems } = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
      )
      pending = (UnprocessedItems?.[tableName()] ?? []) as typeof pending
    }
  }
}

/**
 * Every known wallet, lower-cased: a Query of GSI1's KNOWN_WALLET partition (paged past 1 MB,
 * about 7,000 wallets a page). Only the indexer's last resort reads it, for a block whose
 * catalog transfers are too many to read whole.
 */
export async function listKnownWallets(): Promise<`0x${string}`[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: GSI1,
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': KNOWN_WALLET_INDEX_PARTITION },
    ProjectionExpression: 'gsi1sk',
  })
  return items.map((item) => String(item.gsi1sk) as `0x${string}`)
}

/**
 * Marks the signed nonce used, starts the session and its token family, makes the wallet known
 * (created at its first login) and gives the login's credential check back (if one was reserved),
 * atomically: a nonce signs in once. Returns false when it was used already.
 */
export async function consumeNonceAndStartSession(parameters: {
  address: string
  usedNonce: { nonce: number; expiresAt: number }
  session: Session
  /** A credential check reserved for this login (contract wallets), given back by the same transaction. */
  attemptKey?: TableKey
}): Promise<boolean> {
  const { address, usedNonce, session, attemptKey } = parameters
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          useNonceItem(address, usedNonce.nonce, usedNonce.expiresAt),
          knownWalletItem(address, session.createdAt),
          putSessionItem(session),
          putFamilyItem(session),
          ...(attemptKey ? [releaseItem(attemptKey)] : []),
        ],
      }),
    )
    return true
  } catch (error) {
    if (isTransactionCanceled(error)) return false
    throw error
  }
}

/**
 * The addresses among `addresses` that have a wallet record (lower-cased): BatchGetItem over
 * their WALLET# keys, 100 per call, so the cost follows the addresses asked about, not the table.
 */
export async function findKnownWallets(addresses: Iterable<string>): Promise<Set<string>> {
  const distinct = [...new Set([...addresses].map((address) => address.toLowerCase()))]
  const items = await batchGetItems(distinct.map(walletKey), { projection: 'pk, sk' })
  const known = new Set<string>()
  for (const item of items.values()) known.add(String(item.pk).slice('WALLET#'.length))
  return known
}
