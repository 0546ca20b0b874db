import { decodeJwt } from 'jose'
import { deleteSession, newSession, putSession } from '../../lib/db/session'
import type { SessionCondition } from '../../lib/db/sessionItem'

/**
 * A live wallet session of `wallet`, as the repositories' transactions require one: for fixtures
 * that write what a route writes (a watch, attached networks) without going through the route.
 */
export async function liveSession(wallet: string): Promise<SessionCondition> {
  const session = newSession({ audience: 'wallet', subject: wallet, lifetimeSeconds: 3600 })
  await putSession(session)
  return {
    sessionId: session.sessionId,
    audience: session.audience,
    subject: session.subject,
    confirm() {},
    ended() {
      throw new Error('the fixture session ended')
    },
  }
}

/** Ends the session of an access token as a logout would (its item deleted). */
export async function endSessionOf(access: string): Promise<void> {
  await deleteSession(String(decodeJwt(access).sid))
}
