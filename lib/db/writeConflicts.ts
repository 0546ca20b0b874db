import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb'
import { setTimeout as sleep } from 'node:timers/promises'
import { db } from './client'

// The two ways DynamoDB says a guarded write did not happen; repositories turn them into results.

/** A conditional Put/Update/Delete whose condition was false. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException'
}

/**
 * Whether a conditional Put refused by its condition met this request's own first attempt. When a
 * write's answer is lost (the request timeout passed while the table applied it) the SDK sends it
 * again, and that attempt fails the condition the first one met. The Put must ask for
 * `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` and write `attribute` with a value only this
 * request writes (tests/lib/db/lostAnswers.test.ts).
 */
export function isOwnEarlierAttempt(error: unknown, attribute: string, value: string): boolean {
  if (!isConditionFailed(error)) return false
  const item = (error as { Item?: Record<string, { S?: unknown } | undefined> }).Item
  return item?.[attribute]?.S === value
}

/** A transaction refused as a whole (a condition was false, or it conflicted with another). */
export function isTransactionCanceled(error: unknown): boolean {
  return error instanceof Error && error.name === 'TransactionCanceledException'
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>

const MAX_ATTEMPTS = 8
const BACKOFF_MS = 25

/**
 * Runs a transaction, retrying when it lost a race with another transaction on the same items
 * (TransactionConflict). Returns undefined on success, or each item's cancellation code.
 * Unlike a plain UpdateItem, a transaction is safe for the SDK to resend after a timeout: it
 * carries a ClientRequestToken, the same on every attempt, and DynamoDB applies it once.
 */
export async function transact(items: TransactItems): Promise<string[] | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }))
      return undefined
    } catch (error) {
      if (!isTransactionCanceled(error)) throw error
      const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> })
        .CancellationReasons
      const codes = (reasons ?? []).map((reason) => reason.Code ?? 'None')
      if (!codes.includes('TransactionConflict') || attempt >= MAX_ATTEMPTS) return codes
      // Jittered exponential backoff so the contenders do not collide again in step.
      await sleep(BACKOFF_MS * 2 ** (attempt - 1) * (0.5 + Math.random()))
    }
  }
}
