// The session item's shape, apart from the repository so that code reading it beside other items
// (lib/http/sessionGate.ts) does not bring the AWS SDK into functions that never read the table.

/** Who a session and its tokens are for: a wallet (signature login) or an account (password). */
export type Audience = 'wallet' | 'account'

/**
 * A session is `active` until logout deletes it or a refresh rotates it. A rotated session stays
 * as a tombstone until its TTL, so a second use of its refresh token is recognised as a replay.
 */
export interface Session {
  sessionId: string
  audience: Audience
  subject: string
  status: 'active' | 'rotated'
  /** The first session of the login this one descends from by refresh (its token family). */
  familyId: string
  /** When a refresh rotated it (ISO); only on rotated sessions. */
  rotatedAt?: string
  createdAt: string
  /** Epoch seconds; DynamoDB's TTL removes the item some time after. */
  expiresAt: number
}

/** A session item as read (by getSession, or beside a route's own items); expired is none. */
export function toSession(item: Record<string, unknown> | undefined): Session | undefined {
  if (!item || Number(item.expiresAt) <= Math.floor(Date.now() / 1000)) return undefined
  return {
    sessionId: String(item.sessionId),
    audience: item.audience as Audience,
    subject: String(item.subject),
    status: item.status === 'rotated' ? 'rotated' : 'active',
    familyId: String(item.familyId ?? item.sessionId),
    ...(typeof item.rotatedAt === 'string' && { rotatedAt: item.rotatedAt }),
    createdAt: String(item.createdAt),
    expiresAt: Number(item.expiresAt),
  }
}

/**
 * The caller's session as a route's own transaction requires it (a ConditionCheck built by
 * lib/db/sessionCondition.ts): the repository calls `confirm()` once the transaction committed,
 * and `ended()`, which throws 401003, when the check was what refused it. The session gate
 * (lib/http/sessionGate.ts) is one, so a route hands its gate to the repository.
 */
export interface SessionCondition {
  readonly sessionId: string
  readonly audience: Audience
  readonly subject: string
  confirm(): void
  ended(): never
}

/** A session live for this caller: active, theirs, not past its TTL (whose deletion lags). */
export const LIVE_SESSION_CONDITION =
  '#status = :active AND audience = :audience AND subject = :subject AND expiresAt > :epoch'

/** The names and values LIVE_SESSION_CONDITION reads, for `audience` and `subject` at `now`. */
export function liveSessionOperands(
  session: { audience: Audience; subject: string },
  now: Date,
): { names: Record<string, string>; values: Record<string, unknown> } {
  return {
    names: { '#status': 'status' },
    values: {
      ':active': 'active',
      ':audience': session.audience,
      ':subject': session.subject,
      ':epoch': Math.floor(now.getTime() / 1000),
    },
  }
}
