import {
  DeleteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb'
import { batchWriteItems } from './batchWrite'
import { db, tableName } from './client'
import type { TableKey } from './keys'
import {
  WS_SUBSCRIPTION_PREFIX,
  WS_WALLET_CONNECTION_PREFIX,
  wsConnectionKey,
  wsConnectionPartition,
  wsConnectionSubscriptionKey,
  wsFeedSubscriberKey,
  wsRateKey,
  wsWalletConnectionKey,
  wsWalletPartition,
} from './wsKeys'

// WebSocket connections and their subscriptions (DECISIONS §10.3), each with a TTL: API Gateway
// ends a connection after 2 h, so nothing of one outlives that (plus a margin) even when its
// $disconnect never ran.

export const CONNECTION_LIFETIME_MS = 2 * 60 * 60 * 1000
const MARGIN_S = 600

export interface Connection {
  connectionId: string
  wallet: `0x${string}`
  openUntil: number
}

function expiry(openUntil: number) {
  return Math.ceil(openUntil / 1000) + MARGIN_S
}

/** The wallet's connections still open (a missed $disconnect counts until its 2 h are over). */
export async function countOpenConnections(wallet: string, now = Date.now()): Promise<number> {
  const { Count } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'openUntil > :now',
      ExpressionAttributeValues: {
        ':pk': wsWalletPartition(wallet),
        ':prefix': WS_WALLET_CONNECTION_PREFIX,
        ':now': now,
      },
      Select: 'COUNT',
    }),
  )
  return Count ?? 0
}

export async function putConnection(connection: Connection): Promise<void> {
  const fields = {
    type: 'WsConnection',
    connectionId: connection.connectionId,
    wallet: connection.wallet,
    openUntil: connection.openUntil,
    expiresAt: expiry(connection.openUntil),
  }
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...wsConnectionKey(connection.connectionId), ...fields },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...wsWalletConnectionKey(connection.wallet, connection.connectionId),
              ...fields,
            },
          },
        },
      ],
    }),
  )
}

export async function getConnection(connectionId: string): Promise<Connection | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: wsConnectionKey(connectionId) }),
  )
  if (!Item) return undefined
  return {
    connectionId,
    wallet: Item.wallet as `0x${string}`,
    openUntil: Number(Item.openUntil),
  }
}

/**
 * Counts one message of the connection in the current second: false when the second already
 * holds `limit` of them.
 */
export async function countMessage(connectionId: string, limit: number, now = Date.now()) {
  const second = Math.floor(now / 1000)
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: wsRateKey(connectionId, second),
        UpdateExpression: 'ADD messages :one SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_not_exists(messages) OR messages < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expiresAt': second + 60 },
      }),
    )
    return true
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false
    throw error
  }
}

/** The feeds a connection follows. */
export async function listConnectionFeeds(connectionId: string): Promise<string[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': wsConnectionPartition(connectionId),
        ':prefix': WS_SUBSCRIPTION_PREFIX,
      },
    }),
  )
  return Items.map((item) => String(item.feed))
}

/**
 * Subscribes the connection to a feed from `delivered` on (the last sequence it has): both sides
 * in one transaction. Subscribing again moves the mark.
 */
export async function putSubscription(
  connection: Connection,
  feed: string,
  delivered: number,
): Promise<void> {
  const fields = {
    type: 'WsSubscription',
    connectionId: connection.connectionId,
    feed,
    expiresAt: expiry(connection.openUntil),
  }
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...wsConnectionSubscriptionKey(connection.connectionId, feed), ...fields },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...wsFeedSubscriberKey(feed, connection.connectionId), ...fields, delivered },
          },
        },
      ],
    }),
  )
}

export async function deleteSubscription(connectionId: string, feed: string): Promise<void> {
  await deleteKeys([
    wsConnectionSubscriptionKey(connectionId, feed),
    wsFeedSubscriberKey(feed, connectionId),
  ])
}

/** Everything of a connection: closed, gone (410) or over its limits. */
export async function deleteConnection(connectionId: string): Promise<void> {
  const [connection, feeds] = await Promise.all([
    getConnection(connectionId),
    listConnectionFeeds(connectionId),
  ])
  await deleteKeys([
    wsConnectionKey(connectionId),
    ...(connection ? [wsWalletConnectionKey(connection.wallet, connectionId)] : []),
    ...feeds.flatMap((feed) => [
      wsConnectionSubscriptionKey(connectionId, feed),
      wsFeedSubscriberKey(feed, connectionId),
    ]),
  ])
}

async function deleteKeys(keys: TableKey[]): Promise<void> {
  // One key (an unsubscribe's pair is two): a DeleteItem; more, batches of 25 with retries.
  if (keys.length === 1) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys[0] }))
    return
  }
  await batchWriteItems(keys.map((Key) => ({ DeleteRequest: { Key } })))
}
