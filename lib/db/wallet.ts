import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { batchGetItems } from './batchGet'
import { db, tableName } from './client'
import { walletKey } from './keys'
import { putSessionItem, type Session } from './session'
import { isTransactionCanceled } from './writeConflicts'

export interface WalletNonce {
  nonce: number
  issuedAt: Date
}

/** Stores a fresh sign-in nonce, creating the wallet record on first use. One write. */
export async function storeNonce(address: string, nonce: WalletNonce): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: walletKey(address),
      UpdateExpression:
        'SET #type = :type, address = :address, nonce = :nonce, nonceIssuedAt = :issuedAt, createdAt = if_not_exists(createdAt, :issuedAt)',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'Wallet',
        ':address': address,
        ':nonce': nonce.nonce,
        ':issuedAt': nonce.issuedAt.toISOString(),
      },
    }),
  )
}

/** The wallet's current nonce, if it has one. */
export async function getNonce(address: string): Promise<WalletNonce | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: walletKey(address), ConsistentRead: true }),
  )
  if (!Item || typeof Item.nonce !== 'number') return undefined
  return { nonce: Item.nonce, issuedAt: new Date(String(Item.nonceIssuedAt)) }
}

/**
 * Consumes the signed nonce (replacing it with `fresh`) and creates the session, atomically and
 * only while the nonce is unchanged: a nonce signs in once. Returns false when it was used.
 */
export async function consumeNonceAndStartSession(parameters: {
  address: string
  usedNonce: number
  fresh: WalletNonce
  session: Session
}): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: walletKey(parameters.address),
              UpdateExpression: 'SET nonce = :fresh, nonceIssuedAt = :issuedAt',
              ConditionExpression: 'nonce = :used',
              ExpressionAttributeValues: {
                ':fresh': parameters.fresh.nonce,
                ':issuedAt': parameters.fresh.issuedAt.toISOString(),
                ':used': parameters.usedNonce,
              },
            },
          },
          putSessionItem(parameters.session),
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
