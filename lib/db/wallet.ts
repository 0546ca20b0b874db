import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { batchGetItems } from './batchGet'
import { db, tableName } from './client'
import {
  KNOWN_WALLET_INDEX_PARTITION,
  knownWalletIndexKey,
  nonceKey,
  noncePartition,
  nonceSortKeyFrom,
  nonceWindowKey,
  type TableKey,
  walletKey,
} from './keys'
import { queryAll } from './queryAll'
import { GSI1 } from './tableSchema'
import { putFamilyItem, putSessionItem, type Session, type TransactItem } from './session'
import { countItem, releaseItem, secondsUntil, windowOf } from './windowCounter'
import { isTransactionCanceled, transact } from './writeConflicts'

export interface WalletNonce {
  nonce: number
  issuedAt: Date
}

export interface NonceCap {
  /** Nonces an address may be issued per window. */
  limit: number
  windowSeconds: number
}

/** A nonce stored, or refused because the address's window is full (retry after so long). */
export type StoredNonce = { stored: true } | { stored: false; retryAfterSeconds: number }

/**
 * Stores a sign-in nonce as its own item (TTL: its lifetime), so a new nonce never replaces an
 * outstanding one and no wallet record is written, and counts it in the address's window of
 * `cap` (DECISIONS §8.2), in one transaction: beyond the cap nothing is written.
 */
export async function storeNonce(
  address: string,
  nonce: WalletNonce,
  { lifetimeSeconds, cap }: { lifetimeSeconds: number; cap: NonceCap },
): Promise<StoredNonce> {
  const window = windowOf(cap.windowSeconds, nonce.issuedAt)
  const refused = await transact([
    countItem(nonceWindowKey(address, window.startsAt), {
      limit: cap.limit,
      endsAt: window.endsAt,
    }),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...nonceKey(address, nonce.issuedAt, nonce.nonce),
          type: 'Nonce',
          nonce: nonce.nonce,
          issuedAt: nonce.issuedAt.toISOString(),
          expiresAt: Math.floor(nonce.issuedAt.getTime() / 1000) + lifetimeSeconds,
        },
      },
    },
  ])
  if (!refused) return { stored: true }
  if (refused[0] !== 'ConditionalCheckFailed') {
    throw new Error(`nonce not stored: ${refused.join(', ')}`)
  }
  return { stored: false, retryAfterSeconds: secondsUntil(window.endsAt, nonce.issuedAt) }
}

/**
 * The address's nonces issued after `issuedAfter`, newest first, at most `limit`; with `nonce`,
 * only that one. One strongly consistent Query over the live window.
 */
export async function listOutstandingNonces(
  address: string,
  { issuedAfter, limit, nonce }: { issuedAfter: Date; limit: number; nonce?: number },
): Promise<WalletNonce[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ...(nonce !== undefined && { FilterExpression: 'nonce = :nonce' }),
      ExpressionAttributeValues: {
        ':pk': noncePartition(address),
        ':from': nonceSortKeyFrom(issuedAfter),
        ':to': 'NONCE#~',
        ...(nonce !== undefined && { ':nonce': nonce }),
      },
      ScanIndexForward: false,
      // A filter applies after the limit, so the named nonce is searched in the whole window.
      ...(nonce === undefined && { Limit: limit }),
      ConsistentRead: true,
    }),
  )
  return Items.slice(0, limit).map((item) => ({
    nonce: Number(item.nonce),
    issuedAt: new Date(String(item.issuedAt)),
  }))
}

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
 * Consumes the signed nonce, starts the session and its token family, and makes the wallet known
 * (created at its first login), and gives the login's credential check back, atomically: a nonce
 * signs in once. Returns false when it was used.
 */
export async function consumeNonceAndStartSession(parameters: {
  address: string
  usedNonce: WalletNonce
  session: Session
  /** The credential check reserved for this login, given back by the same transaction. */
  attemptKey: TableKey
}): Promise<boolean> {
  const { address, usedNonce, session } = parameters
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: nonceKey(address, usedNonce.issuedAt, usedNonce.nonce),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          knownWalletItem(address, session.createdAt),
          putSessionItem(session),
          putFamilyItem(session),
          releaseItem(parameters.attemptKey),
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
