import { attemptWindowKey, type TableKey } from '../db/keys'
import { countInWindow, releaseFromWindow, windowOf } from '../db/windowCounter'
import { TooManyRequests } from '../errors'

// DECISIONS §7.1: at most 5 credential checks (password hash or signature verification) per
// username or address per 15-minute window, however many requests arrive at once.
export const MAX_CREDENTIAL_CHECKS = 5
export const CREDENTIAL_WINDOW_SECONDS = 15 * 60

export interface ReservedAttempt {
  /** The counter's key: a login transaction may give the attempt back itself (`releaseItem`). */
  key: TableKey
  /** Gives the attempt back: a check that succeeded does not count as a failure. */
  release: () => Promise<void>
}

/**
 * Reserves one credential check for the subject before the expensive work, in one conditional
 * UpdateItem; when the window's budget is spent, 429 with the seconds until it passes.
 */
export async function reserveAttempt(
  kind: 'account' | 'wallet',
  subject: string,
  now = new Date(),
): Promise<ReservedAttempt> {
  const window = windowOf(CREDENTIAL_WINDOW_SECONDS, now)
  const key = attemptWindowKey(kind, subject, window.startsAt)
  const counted = await countInWindow(key, {
    limit: MAX_CREDENTIAL_CHECKS,
    endsAt: window.endsAt,
    now,
  })
  if (!counted.allowed) {
    const minutes = Math.ceil(counted.retryAfterSeconds / 60)
    throw new TooManyRequests(
      `too many failed logins; try again in ${minutes} minutes`,
      counted.retryAfterSeconds,
    )
  }
  return { key, release: () => releaseFromWindow(key) }
}
