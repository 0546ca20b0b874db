import { BatchGetCommand } from '@aws-sdk/lib-dynamodb'
import { setTimeout as sleep } from 'node:timers/promises'
import { DatabaseUnavailable } from '../http/errors'
import { db, tableName } from './client'
import type { TableKey } from './keys'

const MAX_ATTEMPTS = 5

/**
 * The items at up to 100 keys, in one BatchGetItem unless DynamoDB leaves some unprocessed
 * (throttling), which are asked for again after a pause. Missing items are absent from the map,
 * which is keyed by `pk|sk`.
 */
export async function batchGetItems(
  keys: readonly TableKey[],
  options: { consistentRead?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>()
  let pending: TableKey[] = [...keys]
  for (let attempt = 0; pending.length > 0 && attempt < MAX_ATTEMPTS; attempt += 1) {
    const { Responses, UnprocessedKeys } = await db().send(
      new BatchGetCommand({
        RequestItems: {
          [tableName()]: { Keys: pending, ConsistentRead: options.consistentRead ?? false },
        },
      }),
    )
    for (const item of Responses?.[tableName()] ?? []) found.set(itemId(item as TableKey), item)
    pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as TableKey[]
    if (pending.length > 0) await sleep(50 * 2 ** attempt)
  }
  // Still throttled after the pauses: the database cannot serve us now.
  if (pending.length > 0) throw new DatabaseUnavailable()
  return found
}

export function itemId(key: TableKey): string {
  return `${key.pk}|${key.sk}`
}
