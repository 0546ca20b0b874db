import type { MiddlewareObj } from '@middy/core'
import { createSessionGate } from './sessionGate'
import type { Guard, HttpEvent, HttpRequest, HttpResponse } from './types'

/**
 * Checks the bearer token. With `sessionRead: 'route'` or `'beside'` only the token is verified
 * here, and the route checks the session with its own work through the session gate; with
 * 'beside' the gate's GetItem starts now, so it runs while the request is parsed and the core reads.
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
      const gate = createSessionGate(guard, principal)
      request.context.sessionGate = gate
      // Awaited by defineHandler's core; a rejection is never left unhandled meanwhile.
      if (sessionRead === 'beside') gate.check().catch(() => undefined)
    },
  }
}
