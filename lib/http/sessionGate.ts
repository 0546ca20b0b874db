import { sessionKey } from '../db/keys'
import { toSession } from '../db/sessionItem'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Guard, Principal, SessionGate } from './types'

export type { SessionGate } from './types'

export function createSessionGate(guard: Guard, principal: Principal): SessionGate {
  let admitted = false
  let checking: Promise<void> | undefined
  return {
    key: sessionKey(principal.sessionId),
    sessionId: principal.sessionId,
    audience: principal.audience,
    subject: principal.subject,
    async admit(sessionItem) {
      await guard.admit(principal, toSession(sessionItem))
      admitted = true
    },
    confirm() {
      admitted = true
    },
    ended() {
      throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session has ended; sign in again')
    },
    check() {
      checking ??= guard.checkSession(principal).then(() => {
        admitted = true
      })
      return checking
    },
    get admitted() {
      return admitted
    },
  }
}
