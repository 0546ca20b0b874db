import { BatchGetCommand } from '@aws-sdk/lib-dynamodb'
import { setTimeout as sleep } from 'node:timers/promises'
import { DatabaseUnavailable } from '../errors'
import { db, tableName } from './client'
import type { TableKey } from './keys'

// BatchGetItem takes at most 100 keys a call.
const BATCH_GET_MAX_KEYS = 100
const MAX_ATTEMPTS = 5

/**
 * The items at `keys`, by `itemId`: one BatchGetItem per 100 keys (the first keys in the first
 * call), each asking again after a pause for keys DynamoDB left unprocessed (throttling). Missing
 * items are absent from the map; keys still unprocessed after the pauses are a 503.
 */
export async function batchGetItems(
  keys: readonly TableKey[],
  options: { consistentRead?: boolean; projection?: string } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>()
  for (let start = 0; start < keys.length; start += BATCH_GET_MAX_KEYS) {
    let pending: TableKey[] = keys.slice(start, start + BATCH_GET_MAX_KEYS)
    for (let attempt = 0; pending.length > 0 && attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await sleep(50 * 2 ** attempt)
      const { Responses, UnprocessedKeys } = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: pending,
              ConsistentRead: options.consistentRead ?? false,
              ...(options.projection && { ProjectionExpression: options.projection }),
            },
          },
        }),
      )
      for (const item of Responses?.[tableName()] ?? []) found.set(itemId(item as TableKey), item)
      pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as TableKey[]
    }
    // Still throttled after the pauses: the database cannot serve us now.
    if (pending.length > 0) throw new DatabaseUnavailable()
  }
  return found
}

export function itemId(key: TableKey): string {
  return `${key.pk}|${key.sk}`
}
