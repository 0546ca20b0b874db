import { loadAuthConfig } from '../config/authConfig'
import {
  type Audience,
  deleteLiveSession,
  getSession,
  newSession,
  putSession,
  revokeFamily,
  rotateSessionRecord,
  type Session,
} from '../db/session'
import type { TableKey } from '../db/keys'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Principal } from './principal'
import { signToken } from './tokens'
import { countMetric } from '../metrics'

export interface SessionTokens {
  access: string
  refresh: string
}

// DECISIONS §7.1: a replay this soon after the rotation it lost to is a retry or a second tab,
// not a theft: it is refused without revoking, so the winner's tokens keep working.
export const REPLAY_GRACE_SECONDS = 10

/** A session record for a subject, lasting as long as its refresh token; a login's starts a family. */
export function createSessionRecord(
  audience: Audience,
  subject: string,
  familyId?: string,
): Session {
  return newSession({
    audience,
    subject,
    familyId,
    lifetimeSeconds: loadAuthConfig().refreshTokenTtlSeconds,
  })
}

/** Signs the access and refresh tokens of a session. */
export async function issueTokens(session: Session): Promise<SessionTokens> {
  const claims = {
    audience: session.audience,
    subject: session.subject,
    sessionId: session.sessionId,
  }
  const [access, refresh] = await Promise.all([
    signToken({ ...claims, tokenUse: 'access' }),
    signToken({ ...claims, tokenUse: 'refresh', familyId: session.familyId }),
  ])
  return { access, refresh }
}

/**
 * Creates a session for the subject and signs its two tokens; the same transaction gives back
 * the credential checks `releasing` names (a right password's).
 */
export async function startSession(parameters: {
  audience: Audience
  subject: string
  releasing?: readonly TableKey[]
}): Promise<SessionTokens> {
  const session = createSessionRecord(parameters.audience, parameters.subject)
  await putSession(session, { releasing: parameters.releasing })
  const tokens = await issueTokens(session)
  countMetric('SignIn', { Method: parameters.audience })
  return tokens
}

/**
 * A refresh token presented after its session was rotated. Within the grace period it is refused
 * only; later it is a replay, and its token family (not the subject's other logins) is revoked.
 */
export async function refuseRotatedRefresh(session: Session, now = new Date()): Promise<never> {
  const rotatedAt = session.rotatedAt ? Date.parse(session.rotatedAt) : 0
  if (now.getTime() - rotatedAt > REPLAY_GRACE_SECONDS * 1000) {
    await revokeFamily(session.familyId)
  }
  throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'this refresh token was already used')
}

/**
 * Refresh: replaces the principal's session atomically, in its family, in one transaction,
 * conditional on the session being live and the caller's (active, same audience and subject, not
 * past its TTL). The refresh guard admitted the session just before (and dealt with a replay);
 * a failure here is a concurrent refresh or logout that got there first. The family is the one
 * the guard read, or the refresh token's `fid`; without either, one read finds it.
 */
export async function rotateSession(principal: Principal): Promise<SessionTokens> {
  let familyId = principal.familyId
  if (!familyId) {
    const session = await getSession(principal.sessionId)
    if (!session) {
      throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session has ended; sign in again')
    }
    familyId = session.familyId
  }
  const next = createSessionRecord(principal.audience, principal.subject, familyId)
  const previous = {
    sessionId: principal.sessionId,
    familyId,
    audience: principal.audience,
    subject: principal.subject,
  }
  if (!(await rotateSessionRecord(previous, next))) {
    throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session was replaced by a refresh')
  }
  return issueTokens(next)
}

/**
 * Logout: deletes only the principal's session, with a delete conditional on the session being
 * live and the caller's: 401003 when a concurrent logout or refresh got there first.
 */
export async function endSession(principal: Principal): Promise<void> {
  if (!(await deleteLiveSession(principal))) {
    throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session has ended; sign in again')
  }
}
