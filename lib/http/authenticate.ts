import type { MiddlewareObj } from '@middy/core'
import { createSessionGate } from './sessionGate'
import type { Guard, HttpEvent, HttpRequest, HttpResponse } from './types'

/**
 * Checks the bearer token. With `sessionRead: 'route'` only the token is verified here and the
 * route reads the session with its own items, through the session gate.
 */
export function authenticate(
  guard: Guard,
  sessionRead: 'guard' | 'route' | 'beside' = 'guard',
): MiddlewareObj<HttpEvent, HttpResponse> {
  return {
    before: async (request: HttpRequest) => {
      const header = request.event.headers?.authorization
      if (sessionRead === 'guard') {
        request.context.principal = await guard.authenticate(header)
        return
      }
      const principal = await guard.verify(header)
      request.context.principal = principal
      if (sessionRead === 'beside') {
        const check = guard.checkSession(principal)
        // Awaited by defineHandler's core; a rejection is never left unhandled meanwhile.
        check.catch(() => undefined)
        request.context.sessionCheck = check
        return
      }
      request.context.sessionGate = createSessionGate(guard, principal)
    },
  }
}
