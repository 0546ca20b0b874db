import { loadAuthConfig } from '../config'
import {
  newSession,
  putSession,
  revokeSubjectSessions,
  rotateSessionRecord,
  deleteSession,
  type Session,
} from '../db/session'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Audience, Principal } from '../http/types'
import { signToken } from './tokens'

export interface SessionTokens {
  access: string
  refresh: string
}

/** A session record for a subject, lasting as long as its refresh token. */
export function createSessionRecord(audience: Audience, subject: string): Session {
  return newSession({ audience, subject, lifetimeSeconds: loadAuthConfig().refreshTokenTtlSeconds })
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
    signToken({ ...claims, tokenUse: 'refresh' }),
  ])
  return { access, refresh }
}

/** Creates a session for the subject and signs its two tokens. */
export async function startSession(parameters: {
  audience: Audience
  subject: string
}): Promise<SessionTokens> {
  const session = createSessionRecord(parameters.audience, parameters.subject)
  await putSession(session)
  return issueTokens(session)
}

/**
 * Refresh: replaces the principal's session atomically. Losing a race for the same session means
 * the refresh token was used twice: a replay, so every session of the subject is revoked.
 */
export async function rotateSession(principal: Principal): Promise<SessionTokens> {
  const next = createSessionRecord(principal.audience, principal.subject)
  if (!(await rotateSessionRecord(principal.sessionId, next))) {
    await revokeSubjectSessions(principal.audience, principal.subject)
    throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'this refresh token was already used')
  }
  return issueTokens(next)
}

/** Logout: deletes only the principal's session. */
export async function endSession(principal: Principal): Promise<void> {
  await deleteSession(principal.sessionId)
}
