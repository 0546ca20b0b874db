import type { MiddlewareObj } from '@middy/core'
import type { Guard, HttpEvent, HttpRequest, HttpResponse } from './types'

export function authenticate(guard: Guard): MiddlewareObj<HttpEvent, HttpResponse> {
  return {
    before: async (request: HttpRequest) => {
      request.context.principal = await guard.authenticate(request.event.headers?.authorization)
    },
  }
}
