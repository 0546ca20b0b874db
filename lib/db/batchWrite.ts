import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb'
import { setTimeout as sleep } from 'node:timers/promises'
import { DatabaseUnavailable } from '../errors'
import { db, tableName } from './client'

// BatchWriteItem takes at most 25 requests a call.
const BATCH_WRITE_MAX_REQUESTS = 25
const MAX_ATTEMPTS = 5

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number]

/**
 * Sends `requests` (puts and deletes of the table) in BatchWriteItems of 25, each sending again
 * after a pause what DynamoDB left unprocessed (throttling, a partition busy): DECISIONS §7.1,
 * every batch write retries its unprocessed items. Requests still unprocessed after the pauses
 * are a 503, never a silent loss.
 */
export async function batchWriteItems(requests: readonly WriteRequest[]): Promise<void> {
  for (let start = 0; start < requests.length; start += BATCH_WRITE_MAX_REQUESTS) {
    let pending = requests.slice(start, start + BATCH_WRITE_MAX_REQUESTS)
    for (let attempt = 0; pending.length > 0 && attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await sleep(50 * 2 ** attempt)
      const { UnprocessedItems } = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
      )
      pending = UnprocessedItems?.[tableName()] ?? []
    }
    if (pending.length > 0) throw new DatabaseUnavailable()
  }
}
