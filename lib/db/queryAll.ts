import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import { db } from './client'

/**
 * The items a Query matches, following DynamoDB's pages (it stops a page at 1 MB), up to `limit`
 * items when given: one call unless the items pass 1 MB.
 */
export async function queryAll(
  input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>,
  limit?: number,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = []
  let startKey: Record<string, unknown> | undefined
  do {
    const page = await db().send(
      new QueryCommand({
        ...input,
        ...(limit !== undefined && { Limit: limit - items.length }),
        ExclusiveStartKey: startKey,
      }),
    )
    items.push(...(page.Items ?? []))
    startKey = page.LastEvaluatedKey
  } while (startKey && (limit === undefined || items.length < limit))
  return items
}
