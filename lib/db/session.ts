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
import { type Session, toSession } from './sessionItem'
import { db, tableName } from './client'
import { sessionKey, subjectSessionsIndexKey } from './keys'
import { GSI1 } from './tableSchema'
import { isTransactionCanceled } from './writeConflicts'

export type { Session } from './sessionItem'

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number]

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
