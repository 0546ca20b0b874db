import { attemptWindowKey, type TableKey } from '../db/keys'
import { countInWindow, releaseFromWindow, windowOf } from '../db/windowCounter'
import { TooManyRequests } from '../errors'

// DECISIONS §9.4: the credential checks that cost the service (a password hash, a contract
// wallet's check on chain) are budgeted per client and subject: at most 5 failed checks of one
// account name or contract wallet from one client (source IP) per 15-minute window, however many
// requests arrive at once. A client's failures delay that client only: a stranger's guesses
// never refuse the owner, who signs in from its own address.
export const MAX_CREDENTIAL_CHECKS = 5
export const CREDENTIAL_WINDOW_SECONDS = 15 * 60

export interface ReservedAttempt {
  /** The counter's key: a login transaction may give the attempt back itself (`releaseItem`). */
  key: TableKey
  /** Gives the attempt back: a check that succeeded does not count as a failure. */
  release: () => Promise<void>
}

/**
 * Reserves one credential check of `subject` by the client `sourceIp` before the expensive work,
 * in one conditional UpdateItem; when that client's budget for the subject is spent, 429 with the
 * seconds until its window passes.
 */
export async function reserveAttempt(
  kind: 'account' | 'wallet',
  subject: string,
  sourceIp: string,
  now = new Date(),
): Promise<ReservedAttempt> {
  const window = windowOf(CREDENTIAL_WINDOW_SECONDS, now)
  const key = attemptWindowKey(kind, subject, sourceIp, window.startsAt)
  const counted = await countInWindow(key, {
    limit: MAX_CREDENTIAL_CHECKS,
    endsAt: window.endsAt,
    now,
  })
  if (!counted.allowed) {
    const minutes = Math.ceil(counted.retryAfterSeconds / 60)
    throw new TooManyRequests(
      `too many failed logins from this client; try again in ${minutes} minutes`,
      counted.retryAfterSeconds,
    )
  }
  return { key, release: () => releaseFromWindow(key) }
}
