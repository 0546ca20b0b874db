import type { MiddlewareObj } from '@middy/core'
import type { Guard } from '../auth/guard'
import type { HttpEvent, HttpRequest, HttpResponse } from './types'

/**
 * Checks the bearer token and, by the route's `sessionRead`, its session: with 'guard' before
 * anything else runs; with 'beside' the session's GetItem starts here and runs while the request
 * is parsed and the core works (lib/admission.ts holds back the core's writes and broadcasts, and
 * defineHandler and the error handler its answer, until it is done).
 */
export function authenticate(
  guard: Guard,
  sessionRead: 'guard' | 'beside' = 'guard',
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
      const admission = guard.checkSession(principal)
      // Awaited before any answer; a rejection is never left unhandled meanwhile.
      admission.catch(() => undefined)
      request.context.admission = admission
    },
  }
}
