import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import type { Audience } from '../http/types'
import { db, tableName } from './client'
import { sessionKey, subjectSessionsIndexKey } from './keys'

export interface Session {
  sessionId: string
  audience: Audience
  subject: string
  createdAt: string
  /** Epoch seconds; DynamoDB's TTL removes the item some time after. */
  expiresAt: number
}

function toSession(item: Record<string, unknown>): Session {
  return {
    sessionId: String(item.sessionId),
    audience: item.audience as Audience,
    subject: String(item.subject),
    createdAt: String(item.createdAt),
    expiresAt: Number(item.expiresAt),
  }
}

export async function putSession(session: Session): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...sessionKey(session.sessionId),
        ...subjectSessionsIndexKey(session.audience, session.subject, session.sessionId),
        type: 'Session',
        ...session,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  )
}

/** The live session, or undefined when it ended or its TTL passed (TTL deletion lags). */
export async function getSession(sessionId: string): Promise<Session | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: sessionKey(sessionId), ConsistentRead: true }),
  )
  if (!Item || Number(Item.expiresAt) <= Math.floor(Date.now() / 1000)) return undefined
  return toSession(Item)
}

export async function deleteSession(sessionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: sessionKey(sessionId) }))
}
