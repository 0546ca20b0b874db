import { tableName } from './client'
import { projectKey, WATCH_PREFIX, walletKey, watchKey } from './keys'
import { queryAll } from './queryAll'
import { transact } from './writeConflicts'

// A watch is an item in the wallet's partition; the project's `watchLists` counter moves in the
// same transaction as the item, so the count stays exact whatever runs concurrently.

const failed = (codes: string[], index: number) => codes[index] === 'ConditionalCheckFailed'

export type WatchOutcome = 'added' | 'alreadyWatching' | 'unknownProject'

/** Puts the watch (if absent) and adds one to the project's count, in one transaction. */
export async function watchProject(
  wallet: string,
  projectId: string,
  now = new Date(),
): Promise<WatchOutcome> {
  const codes = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: projectKey(projectId),
        UpdateExpression: 'ADD watchLists :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...watchKey(wallet, projectId),
          type: 'Watch',
          projectId,
          addedAt: now.toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ])
  if (!codes) return 'added'
  if (failed(codes, 0)) return 'unknownProject'
  if (failed(codes, 1)) return 'alreadyWatching'
  throw new Error(`watch transaction cancelled: ${codes.join(', ')}`)
}

export type UnwatchOutcome = 'removed' | 'notWatching' | 'unknownProject'

/** Deletes the watch (if present) and takes one from the project's count, in one transaction. */
export async function unwatchProject(wallet: string, projectId: string): Promise<UnwatchOutcome> {
  const codes = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: projectKey(projectId),
        UpdateExpression: 'ADD watchLists :minusOne',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':minusOne': -1 },
      },
    },
    {
      Delete: {
        TableName: tableName(),
        Key: watchKey(wallet, projectId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  ])
  if (!codes) return 'removed'
  if (failed(codes, 0)) return 'unknownProject'
  if (failed(codes, 1)) return 'notWatching'
  throw new Error(`unwatch transaction cancelled: ${codes.join(', ')}`)
}

/** The ids of the projects a wallet watches, oldest watch first: one Query (paged past 1 MB). */
export async function listWatchedProjectIds(wallet: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': walletKey(wallet).pk, ':prefix': WATCH_PREFIX },
  })
  return items
    .map((item) => ({ projectId: item.projectId as string, addedAt: item.addedAt as string }))
    .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.projectId.localeCompare(b.projectId))
    .map(({ projectId }) => projectId)
}
