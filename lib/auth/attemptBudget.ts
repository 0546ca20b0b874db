import { attemptWindowKey, type TableKey, usernameAttemptWindowKey } from '../db/keys'
import { countInWindow, releaseFromWindow, windowOf } from '../db/windowCounter'
import { TooManyRequests } from '../errors'

// DECISIONS §9.4: the credential checks that cost the service (a password hash, a contract
// wallet's check on chain) are budgeted per client and subject: at most 5 failed checks of one
// account name or contract wallet from one client (source IP) per 15-minute window, however many
// requests arrive at once. A client's failures delay that client only.
export const MAX_CREDENTIAL_CHECKS = 5
export const CREDENTIAL_WINDOW_SECONDS = 15 * 60
// DECISIONS §10.4: beyond that, an account name gets at most 10 password checks per window from
// clients without a device token for it, whichever clients they are; the owner on a known device
// is held by its own client's budget only.
export const MAX_UNKNOWN_DEVICE_CHECKS = 10

export interface ReservedAttempt {
  /** The counter's key: a login transaction may give the attempt back itself (`releaseItem`). */
  key: TableKey
  /** Gives the attempt back: a check that succeeded does not count as a failure. */
  release: () => Promise<void>
}

/**
 * Reserves one check in the window counter `key` (one conditional UpdateItem) or answers 429
 * with the seconds until the window passes, naming whose budget it was.
 */
async function reserve(key: TableKey, limit: number, whose: string, now: Date) {
  const { endsAt } = windowOf(CREDENTIAL_WINDOW_SECONDS, now)
  const counted = await countInWindow(key, { limit, endsAt, now })
  if (!counted.allowed) {
    const minutes = Math.ceil(counted.retryAfterSeconds / 60)
    throw new TooManyRequests(
      `too many failed logins ${whose}; try again in ${minutes} minutes`,
      counted.retryAfterSeconds,
    )
  }
  return { key, release: () => releaseFromWindow(key) }
}

/**
 * Reserves one credential check of `subject` by the client `sourceIp` before the expensive work;
 * when that client's budget for the subject is spent, 429 with the seconds until its window passes.
 */
export function reserveAttempt(
  kind: 'account' | 'wallet',
  subject: string,
  sourceIp: string,
  now = new Date(),
): Promise<ReservedAttempt> {
  const { startsAt } = windowOf(CREDENTIAL_WINDOW_SECONDS, now)
  const key = attemptWindowKey(kind, subject, sourceIp, startsAt)
  return reserve(key, MAX_CREDENTIAL_CHECKS, 'from this client', now)
}

/**
 * Reserves one password check of the account name by a client without a device token for it
 * (MAX_UNKNOWN_DEVICE_CHECKS a window, all such clients together); spent, 429 with `Retry-After`.
 */
export function reserveUnknownDeviceCheck(
  username: string,
  now = new Date(),
): Promise<ReservedAttempt> {
  const key = usernameAttemptWindowKey(username, windowOf(CREDENTIAL_WINDOW_SECONDS, now).startsAt)
  return reserve(
    key,
    MAX_UNKNOWN_DEVICE_CHECKS,
    'at this username from devices it has not signed in on',
    now,
  )
}
