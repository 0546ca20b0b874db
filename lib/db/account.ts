import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client'
import { accountKey, loginFailuresKey, usernamePartition } from './keys'
import { isConditionFailed } from './writeConflicts'

export interface Account {
  accountId: string
  /** As registered; lookups ignore case. */
  username: string
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`, from lib/auth/password.ts. */
  passwordHash: string
  createdAt: string
}

export interface LoginFailures {
  count: number
  /** Epoch seconds: the end of the window, and the item's TTL. */
  windowEndsAt: number
}

export interface LoginRecord {
  account?: Account
  /** Failed logins in the current window; undefined when there are none. */
  failures?: LoginFailures
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** Creates the account unless its username is taken in any casing; returns false if taken. */
export async function createAccount(account: Account): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...accountKey(account.username), type: 'Account', ...account },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/** The account of a username and its failed logins of the current window, in one read. */
export async function getLoginRecord(username: string, now = new Date()): Promise<LoginRecord> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': usernamePartition(username) },
      ConsistentRead: true,
    }),
  )
  const record: LoginRecord = {}
  for (const item of Items) {
    if (item.sk === accountKey(username).sk) {
      record.account = {
        accountId: String(item.accountId),
        username: String(item.username),
        passwordHash: String(item.passwordHash),
        createdAt: String(item.createdAt),
      }
    }
    // A past window that TTL has not removed yet counts as no failures.
    if (item.sk === loginFailuresKey(username).sk && Number(item.expiresAt) > epochSeconds(now)) {
      record.failures = { count: Number(item.failedLogins), windowEndsAt: Number(item.expiresAt) }
    }
  }
  return record
}

const FAILURE_NAMES = { '#failed': 'failedLogins', '#expiresAt': 'expiresAt', '#type': 'type' }

/**
 * Counts a failed login atomically. The first failure opens a window of `windowSeconds`, which is
 * also the counter's TTL; a failure after the window has passed opens a new one.
 */
export async function recordLoginFailure(
  username: string,
  { windowSeconds, now = new Date() }: { windowSeconds: number; now?: Date },
): Promise<void> {
  const key = loginFailuresKey(username)
  const values = {
    ':one': 1,
    ':now': epochSeconds(now),
    ':windowEnd': epochSeconds(now) + windowSeconds,
  }
  const countInWindow = () =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression:
          'SET #expiresAt = if_not_exists(#expiresAt, :windowEnd), #type = :type ADD #failed :one',
        ConditionExpression: 'attribute_not_exists(#expiresAt) OR #expiresAt > :now',
        ExpressionAttributeNames: FAILURE_NAMES,
        ExpressionAttributeValues: { ...values, ':type': 'LoginFailures' },
      }),
    )
  try {
    await countInWindow()
    return
  } catch (error) {
    if (!isConditionFailed(error)) throw error
  }
  // The item holds a past window that TTL has not removed yet: start a new one.
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #failed = :one, #expiresAt = :windowEnd',
        ConditionExpression: '#expiresAt <= :now',
        ExpressionAttributeNames: { '#failed': 'failedLogins', '#expiresAt': 'expiresAt' },
        ExpressionAttributeValues: values,
      }),
    )
  } catch (error) {
    // A concurrent failure started the new window first; count in it.
    if (!isConditionFailed(error)) throw error
    await countInWindow()
  }
}
