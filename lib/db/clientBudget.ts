import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { type ClientLimitName, loadClientLimitConfig } from '../config'
import { TooManyRequests } from '../errors'
import { db, tableName } from './client'
import { clientWindowKey } from './keys'
import { countInWindow, windowOf } from './windowCounter'

/** Per-client budgets count per fixed minute. */
export const CLIENT_WINDOW_SECONDS = 60

/**
 * Takes `weight` units of a client's (source IP's) budget for the present minute (DECISIONS §7.1,
 * §9.4): one conditional UpdateItem on a window per client and budget, shared by every Lambda
 * instance. A use that does not fit takes nothing and is refused with 429 and the seconds until
 * the window ends (`Retry-After`).
 */
export async function spendClientBudget(
  name: ClientLimitName,
  sourceIp: string,
  { weight = 1, now = new Date() }: { weight?: number; now?: Date } = {},
): Promise<void> {
  const window = windowOf(CLIENT_WINDOW_SECONDS, now)
  const counted = await countInWindow(clientWindowKey(name, sourceIp, window.startsAt), {
    limit: loadClientLimitConfig()[name],
    endsAt: window.endsAt,
    weight,
    now,
  })
  if (!counted.allowed) {
    throw new TooManyRequests(
      `too many requests from this client; try again in ${counted.retryAfterSeconds} s`,
      counted.retryAfterSeconds,
    )
  }
}

/**
 * Gives back `units` of what a request was charged when admitted (its route's worst case, less
 * the RPC calls it made: DECISIONS §10.4), to the window it was charged in (`chargedAt`), so a
 * request that straddles a minute's end never credits the next one. One UpdateItem without a
 * condition (ADD a negative amount): the work is done.
 */
export async function refundClientBudget(
  name: ClientLimitName,
  sourceIp: string,
  { units, chargedAt }: { units: number; chargedAt: Date },
): Promise<void> {
  if (units <= 0) return
  const window = windowOf(CLIENT_WINDOW_SECONDS, chargedAt)
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: clientWindowKey(name, sourceIp, window.startsAt),
      UpdateExpression: 'SET #type = :type, expiresAt = :endsAt ADD #count :units',
      ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
      ExpressionAttributeValues: {
        ':type': 'WindowCounter',
        ':endsAt': window.endsAt,
        ':units': -units,
      },
    }),
  )
}
