import {
  DeleteCommand,
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb'
import { randomUUID } from 'node:crypto'
import { db, tableName } from './client'
import { familyKey, sessionKey, type TableKey } from './keys'
import { releaseItem } from './windowCounter'
import { isConditionFailed, isTransactionCanceled, transact } from './writeConflicts'

/** Who a session and its tokens are for: a wallet (signature login) or an account (password). */
export type Audience = 'wallet' | 'account'

/**
 * A session is `active` until logout deletes it or a refresh rotates it. A rotated session stays
 * as a tombstone until its TTL, so a second use of its refresh token is recognised as a replay.
 */
export interface Session {
  sessionId: string
  audience: Audience
  subject: string
  status: 'active' | 'rotated'
  /** The first session of the login this one descends from by refresh (its token family). */
  familyId: string
  /** When a refresh rotated it (ISO); only on rotated sessions. */
  rotatedAt?: string
  createdAt: string
  /** Epoch seconds; DynamoDB's TTL removes the item some time after. */
  expiresAt: number
}

/** A session item as read; one past its TTL is none (DynamoDB deletes it some time after). */
function toSession(item: Record<string, unknown> | undefined): Session | undefined {
  if (!item || Number(item.expiresAt) <= Math.floor(Date.now() / 1000)) return undefined
  return {
    sessionId: String(item.sessionId),
    audience: item.audience as Audience,
    subject: String(item.subject),
    status: item.status === 'rotated' ? 'rotated' : 'active',
    familyId: String(item.familyId ?? item.sessionId),
    ...(typeof item.rotatedAt === 'string' && { rotatedAt: item.rotatedAt }),
    createdAt: String(item.createdAt),
    expiresAt: Number(item.expiresAt),
  }
}

/** A session live for this caller: active, theirs, not past its TTL (whose deletion lags). */
const LIVE_SESSION_CONDITION =
  '#status = :active AND audience = :audience AND subject = :subject AND expiresAt > :epoch'

/** The names and values LIVE_SESSION_CONDITION reads, for `audience` and `subject` at `now`. */
function liveSessionOperands(
  session: { audience: Audience; subject: string },
  now: Date,
): { names: Record<string, string>; values: Record<string, unknown> } {
  return {
    names: { '#status': 'status' },
    values: {
      ':active': 'active',
      ':audience': session.audience,
      ':subject': session.subject,
      ':epoch': Math.floor(now.getTime() / 1000),
    },
  }
}

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number]

export function newSession(parameters: {
  audience: Audience
  subject: string
  lifetimeSeconds: number
  /** The family of the session a refresh replaces; a login starts a new one. */
  familyId?: string
  now?: Date
}): Session {
  const now = parameters.now ?? new Date()
  const sessionId = randomUUID()
  return {
    sessionId,
    audience: parameters.audience,
    subject: parameters.subject,
    status: 'active',
    familyId: parameters.familyId ?? sessionId,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + parameters.lifetimeSeconds,
  }
}

/** The write that creates a session, for use inside a transaction. */
export function putSessionItem(session: Session): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...sessionKey(session.sessionId), type: 'Session', ...session },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/** The write that starts a token family at a login, pointing at its first session. */
export function putFamilyItem(session: Session): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...familyKey(session.familyId),
        type: 'TokenFamily',
        currentSessionId: session.sessionId,
        expiresAt: session.expiresAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/**
 * Creates a login's first session and its token family, in one transaction, which also gives
 * back the window counters `releasing` names (the credential checks a right password reserved).
 */
export async function putSession(
  session: Session,
  { releasing = [] }: { releasing?: readonly TableKey[] } = {},
): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        putSessionItem(session),
        putFamilyItem(session),
        ...releasing.map(releaseItem),
      ],
    }),
  )
}

/** The session, active or rotated; undefined when it ended or its TTL passed (TTL deletion lags). */
export async function getSession(sessionId: string): Promise<Session | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: sessionKey(sessionId), ConsistentRead: true }),
  )
  return toSession(Item)
}

/**
 * Marks `previous` rotated and creates `next` in the same family, atomically and only while the
 * previous session is active and its family is alive and points at it: of concurrent rotations of
 * one session exactly one succeeds. Returns false when the rotation did not happen.
 */
export async function rotateSessionRecord(
  previous: { sessionId: string; familyId: string; audience: Audience; subject: string },
  next: Session,
  now = new Date(),
): Promise<boolean> {
  const live = liveSessionOperands(previous, now)
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: sessionKey(previous.sessionId),
              UpdateExpression: 'SET #status = :rotated, rotatedAt = :now',
              // The session check of a refresh: live, the token's, and not past its TTL.
              ConditionExpression: LIVE_SESSION_CONDITION,
              ExpressionAttributeNames: live.names,
              ExpressionAttributeValues: {
                ...live.values,
                ':rotated': 'rotated',
                ':now': now.toISOString(),
              },
            },
          },
          putSessionItem(next),
          {
            Update: {
              TableName: tableName(),
              Key: familyKey(previous.familyId),
              UpdateExpression: 'SET currentSessionId = :next, expiresAt = :expiresAt',
              ConditionExpression: 'currentSessionId = :previous AND attribute_not_exists(revoked)',
              ExpressionAttributeValues: {
                ':next': next.sessionId,
                ':previous': previous.sessionId,
                ':expiresAt': next.expiresAt,
              },
            },
          },
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
 * Deletes a session only while it is active and the caller's (audience, subject, not past its
 * TTL): the delete is the session check of a logout. Returns false when it was not.
 */
export async function deleteLiveSession(
  session: { sessionId: string; audience: Audience; subject: string },
  now = new Date(),
): Promise<boolean> {
  const live = liveSessionOperands(session, now)
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: sessionKey(session.sessionId),
        ConditionExpression: LIVE_SESSION_CONDITION,
        ExpressionAttributeNames: live.names,
        ExpressionAttributeValues: live.values,
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

const MAX_REVOKE_ATTEMPTS = 8

/**
 * Revokes a token family (a detected refresh-token replay): marks it revoked and deletes its
 * current session in one transaction, conditioned on the family still pointing at that session,
 * so a rotation racing the revocation cannot leave a live session behind. Strongly consistent
 * reads only. A revoked family stays revoked; other families of the subject are untouched.
 */
export async function revokeFamily(familyId: string): Promise<void> {
  for (let attempt = 1; attempt <= MAX_REVOKE_ATTEMPTS; attempt += 1) {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: familyKey(familyId), ConsistentRead: true }),
    )
    if (Item?.revoked === true) return
    const current = typeof Item?.currentSessionId === 'string' ? Item.currentSessionId : undefined
    const failed = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: familyKey(familyId),
          UpdateExpression: 'SET revoked = :true',
          ConditionExpression: current
            ? 'currentSessionId = :current'
            : 'attribute_not_exists(currentSessionId)',
          ExpressionAttributeValues: { ':true': true, ...(current && { ':current': current }) },
        },
      },
      ...(current
        ? [{ Delete: { TableName: tableName(), Key: sessionKey(current) } } as TransactItem]
        : []),
    ])
    if (!failed) return
  }
  throw new Error('the token family could not be revoked: it kept changing')
}
