import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client'
import type { TableKey } from './keys'
import { isConditionFailed } from './writeConflicts'

export interface CountedWindow {
  /** Epoch seconds at which the window (and the counter item, by TTL) ends. */
  endsAt: number
}

export type WindowCount =
  | ({ allowed: true } & CountedWindow)
  | ({ allowed: false; retryAfterSeconds: number } & CountedWindow)

/** The fixed window of `seconds` that contains `now`, as epoch seconds. */
export function windowOf(seconds: number, now = new Date()): { startsAt: number; endsAt: number } {
  const epoch = Math.floor(now.getTime() / 1000)
  const startsAt = epoch - (epoch % seconds)
  return { startsAt, endsAt: startsAt + seconds }
}

export interface WindowBudget {
  /** Units the window allows. */
  limit: number
  /** Epoch seconds at which the window ends (the counter's TTL). */
  endsAt: number
  /** Units this use takes (1 unless given): a request priced in, say, the RPC calls it makes. */
  weight?: number
}

/**
 * The conditional update that takes `weight` units of a fixed-window budget (ADD, TTL at the
 * window's end), also for use inside a transaction: it fails its condition when the units would
 * pass `limit`, so a use that does not fit takes nothing.
 */
export function countItem(key: TableKey, { limit, endsAt, weight = 1 }: WindowBudget) {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #type = :type, expiresAt = :endsAt ADD #count :weight',
      ConditionExpression: 'attribute_not_exists(#count) OR #count <= :room',
      ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
      ExpressionAttributeValues: {
        ':type': 'WindowCounter',
        ':endsAt': endsAt,
        ':weight': weight,
        // count + weight <= limit; a weight above the limit never fits (room < 0).
        ':room': limit - weight,
      },
    },
  }
}

/** Seconds from `now` until a window ending at `endsAt` (epoch seconds) has passed; at least 1. */
export function secondsUntil(endsAt: number, now = new Date()): number {
  return Math.max(1, endsAt - Math.floor(now.getTime() / 1000))
}

/**
 * Takes `weight` units (1 unless given) of a fixed-window budget: a single conditional UpdateItem
 * (countItem), so concurrent callers on any Lambda instance can never take more than `limit`
 * between them. `key` names the window (its start is part of the key), so no reset is needed.
 */
export async function countInWindow(
  key: TableKey,
  { now = new Date(), ...budget }: WindowBudget & { now?: Date },
): Promise<WindowCount> {
  const { endsAt } = budget
  try {
    await db().send(new UpdateCommand(countItem(key, budget).Update))
    return { allowed: true, endsAt }
  } catch (error) {
    if (!isConditionFailed(error)) throw error
    return { allowed: false, retryAfterSeconds: secondsUntil(endsAt, now), endsAt }
  }
}

/**
 * The update that gives a unit back, also for use inside a transaction. Unconditional, so it can
 * never fail a login's transaction; the unit was taken from this same window's counter.
 */
export function releaseItem(key: TableKey) {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #count :minusOne',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  }
}

/** Gives a unit back (a credential check that succeeded does not count against the budget). */
export async function releaseFromWindow(key: TableKey): Promise<void> {
  await db().send(new UpdateCommand(releaseItem(key).Update))
}
