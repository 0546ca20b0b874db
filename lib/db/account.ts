import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client'
import { accountKey } from './keys'
import { isConditionFailed, isOwnEarlierAttempt } from './writeConflicts'

export interface Account {
  accountId: string
  /** As registered; lookups ignore case. */
  username: string
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`, from lib/auth/password.ts. */
  passwordHash: string
  createdAt: string
}

/** Creates the account unless its username is taken in any casing; returns false if taken. */
export async function createAccount(account: Account): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...accountKey(account.username), type: 'Account', ...account },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    )
    return true
  } catch (error) {
    // The SDK's second attempt after a lost answer finds the account its first one wrote.
    if (isConditionFailed(error)) return isOwnEarlierAttempt(error, 'accountId', account.accountId)
    throw error
  }
}

/** The account of a username (any casing), or undefined. One strongly consistent read. */
export async function getAccount(username: string): Promise<Account | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: accountKey(username), ConsistentRead: true }),
  )
  if (!Item) return undefined
  return {
    accountId: String(Item.accountId),
    username: String(Item.username),
    passwordHash: String(Item.passwordHash),
    createdAt: String(Item.createdAt),
  }
}
