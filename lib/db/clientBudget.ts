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
 * Adds `units` a client's request turned out to cost beyond what it was charged when admitted
 * (a quote's RPC calls past its up-front weight): one UpdateItem without a condition, since the
 * work is done; the client's next request finds the budget that much spent.
 */
export async function chargeClientBudget(
  name: ClientLimitName,
  sourceIp: string,
  { units, now = new Date() }: { units: number; now?: Date },
): Promise<void> {
  const window = windowOf(CLIENT_WINDOW_SECONDS, now)
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: clientWindowKey(name, sourceIp, window.startsAt),
      UpdateExpression: 'SET #type = :type, expiresAt = :endsAt ADD #count :units',
      ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
      ExpressionAttributeValues: {
        ':type': 'WindowCounter',
        ':endsAt': window.endsAt,
        ':units': units,
      },
    }),
  )
}
