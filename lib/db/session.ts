import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb'
import { randomUUID } from 'node:crypto'
import type { Audience } from '../http/types'
import { db, tableName } from './client'
import { sessionKey, subjectSessionsIndexKey } from './keys'
import { GSI1 } from './tableSchema'
import { isTransactionCanceled } from './writeConflicts'

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number]

/**
 * A session is `active` until logout deletes it or a refresh rotates it. A rotated session stays
 * as a tombstone until its TTL, so a second use of its refresh token is recognised as a replay.
 */
export interface Session {
  sessionId: string
  audience: Audience
  subject: string
  status: 'active' | 'rotated'
  createdAt: string
  /** Epoch seconds; DynamoDB's TTL removes the item some time after. */
  expiresAt: number
}

export function newSession(parameters: {
  audience: Audience
  subject: string
  lifetimeSeconds: number
  now?: Date
}): Session {
  const now = parameters.now ?? new Date()
  return {
    sessionId: randomUUID(),
    audience: parameters.audience,
    subject: parameters.subject,
    status: 'active',
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + parameters.lifetimeSeconds,
  }
}

/** The write that creates a session, for use inside a transaction. */
export function putSessionItem(session: Session): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...sessionKey(session.sessionId),
        ...subjectSessionsIndexKey(session.audience, session.subject, session.sessionId),
        type: 'Session',
        ...session,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

export async function putSession(session: Session): Promise<void> {
  await db().send(new PutCommand(putSessionItem(session).Put as never))
}

/** The session, active or rotated; undefined when it ended or its TTL passed (TTL deletion lags). */
export async function getSession(sessionId: string): Promise<Session | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: sessionKey(sessionId), ConsistentRead: true }),
  )
  return toSession(Item)
}

/** A session item as read (by getSession, or beside a route's own items); expired is none. */
export function toSession(item: Record<string, unknown> | undefined): Session | undefined {
  if (!item || Number(item.expiresAt) <= Math.floor(Date.now() / 1000)) return undefined
  return {
    sessionId: String(item.sessionId),
    audience: item.audience as Audience,
    subject: String(item.subject),
    status: item.status === 'rotated' ? 'rotated' : 'active',
    createdAt: String(item.createdAt),
    expiresAt: Number(item.expiresAt),
  }
}

/**
 * Marks `previousSessionId` rotated and creates `next`, atomically and only while the previous
 * session is still active: of concurrent rotations of one session exactly one succeeds.
 * Returns false when the previous session was no longer active.
 */
export async function rotateSessionRecord(
  previousSessionId: string,
  next: Session,
): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: sessionKey(previousSessionId),
              // Leaving the index: a tombstone is not a session of its subject any more.
              UpdateExpression: 'SET #status = :rotated REMOVE gsi1pk, gsi1sk',
              ConditionExpression: '#status = :active',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':rotated': 'rotated', ':active': 'active' },
            },
          },
          putSessionItem(next),
        ],
      }),
    )
    return true
  } catch (error) {
    if (isTransactionCanceled(error)) return false
    throw error
  }
}

export async function deleteSession(sessionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: sessionKey(sessionId) }))
}

/** Deletes every active session of a subject (a detected refresh-token replay). */
export async function revokeSubjectSessions(audience: Audience, subject: string): Promise<number> {
  const { gsi1pk } = subjectSessionsIndexKey(audience, subject, '')
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :gsi1pk',
      ExpressionAttributeValues: { ':gsi1pk': gsi1pk },
      ProjectionExpression: 'pk, sk',
    }),
  )
  for (let start = 0; start < Items.length; start += 25) {
    const batch = Items.slice(start, start + 25)
    await db().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: batch.map((item) => ({
            DeleteRequest: { Key: { pk: item.pk, sk: item.sk } },
          })),
        },
      }),
    )
  }
  return Items.length
}
