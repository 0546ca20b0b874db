import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client'
import {
  WS_EVENT_PREFIX,
  WS_SUBSCRIPTION_PREFIX,
  wsFeedCounterKey,
  wsFeedEventKey,
  wsFeedPartition,
  wsFeedSubscriberKey,
} from './wsKeys'

// A feed's numbered events, kept 24 h for `resume`, and its subscribers with the last sequence
// each was sent (DECISIONS §10.3).

export const EVENT_RETENTION_S = 24 * 60 * 60

export interface FeedEvent {
  sequence: number
  /** The pushed message, JSON, with its `sequence`. */
  message: string
}

export interface FeedSubscriber {
  connectionId: string
  delivered: number
}

/** The last sequence a feed has numbered (0 before its first event). */
export async function lastSequence(feed: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: wsFeedCounterKey(feed) }),
  )
  return Number(Item?.last ?? 0)
}

/** Numbers the feed's next event and keeps it 24 h; the message is built with its sequence. */
export async function appendEvent(
  feed: string,
  build: (sequence: number) => string,
  now = Date.now(),
): Promise<FeedEvent> {
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: wsFeedCounterKey(feed),
      UpdateExpression: 'ADD #last :one',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  )
  const sequence = Number(Attributes?.last)
  const message = build(sequence)
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...wsFeedEventKey(feed, sequence),
        type: 'WsEvent',
        sequence,
        message,
        expiresAt: Math.ceil(now / 1000) + EVENT_RETENTION_S,
      },
    }),
  )
  return { sequence, message }
}

/** The feed's events after `sequence`, in order (at most `limit`), still within 24 h. */
export async function eventsAfter(
  feed: string,
  sequence: number,
  { limit = 100, now = Date.now() }: { limit?: number; now?: number } = {},
): Promise<FeedEvent[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      // TTL deletes lazily: an expired event is gone for resume even while still stored.
      FilterExpression: 'expiresAt > :now',
      ExpressionAttributeValues: {
        ':pk': wsFeedPartition(feed),
        ':from': wsFeedEventKey(feed, sequence + 1).sk,
        ':to': `${WS_EVENT_PREFIX}~`,
        ':now': Math.floor(now / 1000),
      },
      Limit: limit,
    }),
  )
  return Items.map((item) => ({ sequence: Number(item.sequence), message: String(item.message) }))
}

/** Who follows the feed: one Query over its subscribers only. */
export async function listSubscribers(feed: string): Promise<FeedSubscriber[]> {
  const subscribers: FeedSubscriber[] = []
  let cursor: Record<string, unknown> | undefined
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': wsFeedPartition(feed),
          ':prefix': WS_SUBSCRIPTION_PREFIX,
        },
        ExclusiveStartKey: cursor,
      }),
    )
    for (const item of page.Items ?? []) {
      subscribers.push({
        connectionId: String(item.connectionId),
        delivered: Number(item.delivered),
      })
    }
    cursor = page.LastEvaluatedKey
  } while (cursor)
  return subscribers
}

/**
 * Claims the delivery of `sequence` to a subscriber: only while its mark is the sequence before,
 * so each event is sent to each subscription once and none is skipped.
 */
export async function claimDelivery(
  feed: string,
  connectionId: string,
  sequence: number,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: wsFeedSubscriberKey(feed, connectionId),
        UpdateExpression: 'SET delivered = :sequence',
        ConditionExpression: 'delivered = :previous',
        ExpressionAttributeValues: { ':sequence': sequence, ':previous': sequence - 1 },
      }),
    )
    return true
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false
    throw error
  }
}
