import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { createHash, randomUUID } from 'node:crypto'
import { db, tableName } from './client'
import { idempotencyKey } from './keys'
import { isConditionFailed, isOwnEarlierAttempt } from './writeConflicts'

/** How long a key is remembered (the TTL deletes the item some time after). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60

/**
 * A claimed Idempotency-Key: `in_progress` while its request runs, then `completed` with the
 * transaction it sent. `fingerprint` identifies the request, so a key reused for another is seen.
 */
export interface IdempotencyRecord {
  status: 'in_progress' | 'completed'
  fingerprint: string
  txId?: `0x${string}`
  /** Every transaction sent, in order, when the request sent several. */
  txIds?: `0x${string}`[]
}

export interface IdempotencyKeyParameters {
  wallet: string
  key: string
}

function keyOf({ wallet, key }: IdempotencyKeyParameters) {
  return idempotencyKey(wallet, createHash('sha256').update(key).digest('hex'))
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000)

/**
 * Claims the key for a request with one conditional put. Returns undefined when this request now
 * holds it, or the record that was there (another request, running or done). An item past its
 * expiry counts as absent, since the TTL deletes late.
 */
export async function claimIdempotencyKey(
  parameters: IdempotencyKeyParameters & { fingerprint: string; now?: Date },
): Promise<IdempotencyRecord | undefined> {
  const now = parameters.now ?? new Date()
  const Key = keyOf(parameters)
  // A record released between our put and our read is gone: claim again (once is enough).
  for (let attempt = 0; attempt < 2; attempt += 1) {
    // Only this claim writes it: the SDK's second attempt after a lost answer knows its own.
    const claimId = randomUUID()
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...Key,
            type: 'IdempotencyKey',
            status: 'in_progress',
            fingerprint: parameters.fingerprint,
            createdAt: now.toISOString(),
            expiresAt: epochSeconds(now) + IDEMPOTENCY_TTL_SECONDS,
            claimId,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
          ExpressionAttributeValues: { ':now': epochSeconds(now) },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      return undefined
    } catch (error) {
      if (!isConditionFailed(error)) throw error
      if (isOwnEarlierAttempt(error, 'claimId', claimId)) return undefined
    }
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }),
    )
    if (Item) {
      return {
        status: Item.status === 'completed' ? 'completed' : 'in_progress',
        fingerprint: String(Item.fingerprint),
        ...(typeof Item.txId === 'string' && { txId: Item.txId as `0x${string}` }),
        ...(Array.isArray(Item.txIds) && { txIds: Item.txIds as `0x${string}`[] }),
      }
    }
  }
  throw new Error('the Idempotency-Key was claimed and released twice in a row')
}

export interface CompleteIdempotencyKeyParameters extends IdempotencyKeyParameters {
  txId: `0x${string}`
  txIds?: `0x${string}`[]
}

/** The update that marks a claimed key done, for a transaction with the request's trade. */
export function completeIdempotencyKeyItem(parameters: CompleteIdempotencyKeyParameters) {
  const { txIds } = parameters
  return {
    Update: {
      TableName: tableName(),
      Key: keyOf(parameters),
      UpdateExpression: `SET #status = :completed, txId = :txId${txIds ? ', txIds = :txIds' : ''}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':txId': parameters.txId,
        ...(txIds && { ':txIds': txIds }),
      },
    },
  }
}

/** Marks a claimed key done with the transaction its request sent (alone: see recordTrade). */
export async function completeIdempotencyKey(
  parameters: CompleteIdempotencyKeyParameters,
): Promise<void> {
  await db().send(new UpdateCommand(completeIdempotencyKeyItem(parameters).Update))
}

/** Frees a key whose request failed before sending anything, so the client may retry with it. */
export async function releaseIdempotencyKey(parameters: IdempotencyKeyParameters): Promise<void> {
  await db().send(
    new DeleteCommand({
      TableName: tableName(),
      Key: keyOf(parameters),
      ConditionExpression: '#status = :inProgress',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':inProgress': 'in_progress' },
    }),
  )
}
