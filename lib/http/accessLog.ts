import type { MiddlewareObj } from '@middy/core'
import { logger } from '../logger'
import { type HttpEvent, type HttpRequest, type HttpResponse, requestIdOf } from './types'

// One line per request with the route template, never the raw path: some paths carry secrets.
export function accessLog(): MiddlewareObj<HttpEvent, HttpResponse> {
  const startedAt = new WeakMap<object, number>()
  const write = (request: HttpRequest) => {
    const started = startedAt.get(request.event) ?? Date.now()
    logger.info('request', {
      requestId: requestIdOf(request),
      routeKey: request.event.routeKey,
      status: request.response?.statusCode,
      durationMs: Date.now() - started,
    })
  }
  return {
    before: (request) => {
      // First in the chain, so every line of the invocation knows whether it is a cold start.
      logger.startInvocation()
      startedAt.set(request.event, Date.now())
    },
    after: write,
    onError: write,
  }
}
