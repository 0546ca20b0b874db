import { sessionKey } from '../db/keys'
import { toSession } from '../db/sessionItem'
import type { Guard, Principal, SessionGate } from './types'

export type { SessionGate } from './types'

export function createSessionGate(guard: Guard, principal: Principal): SessionGate {
  let admitted = false
  return {
    key: sessionKey(principal.sessionId),
    async admit(sessionItem) {
      await guard.admit(principal, toSession(sessionItem))
      admitted = true
    },
    confirm() {
      admitted = true
    },
    get admitted() {
      return admitted
    },
  }
}
