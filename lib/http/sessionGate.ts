import { sessionKey, type TableKey } from '../db/keys'
import { toSession } from '../db/sessionItem'
import type { Guard, Principal } from './types'

/**
 * For a route that reads the caller's session in the same DynamoDB call as its own items (one
 * BatchGetItem instead of a GetItem and then its read). The guard has verified the token; the
 * route reads `key` with its items and hands the session item to `admit` before using any of
 * them. defineHandler refuses to answer if the route never did.
 */
export interface SessionGate {
  readonly key: TableKey
  admit(sessionItem: Record<string, unknown> | undefined): Promise<void>
  /** The route's own conditional write required the session live and the caller's. */
  confirm(): void
  readonly admitted: boolean
}

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
