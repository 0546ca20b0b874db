import type { MiddlewareObj } from '@middy/core'
import { logger } from '../logger'
import {
  AppError,
  BadRequest,
  ChainUnavailable,
  TooManyRequests,
  UnsupportedMediaType,
} from '../errors'
import { countMetric } from '../metrics'
import { jsonResponse } from './envelope'
import { type HttpEvent, type HttpRequest, type HttpResponse, requestIdOf } from './types'

const BODY_PARSER = '@middy/http-json-body-parser'

// middy's body parser throws its own HttpError (415) both for a wrong content type and for
// malformed JSON; DECISIONS makes the latter a 400.
function fromBodyParser(error: Error): AppError | undefined {
  const cause = (error as { cause?: { package?: string } }).cause
  if (cause?.package !== BODY_PARSER) return undefined
  if (error.message.startsWith('Invalid or malformed JSON')) {
    return new BadRequest('the body is not valid JSON')
  }
  return new UnsupportedMediaType('send the body as application/json')
}

/** The one place an error becomes a response: typed errors map to their status and code. */
export function errorHandler(): MiddlewareObj<HttpEvent, HttpResponse> {
  return {
    onError: async (request: HttpRequest) => {
      // A session read beside the core (`sessionRead: 'beside'`): an ended one is answered 401003
      // whatever else failed, and nothing is answered before the read is done.
      const refused = await request.context.admission?.then(
        () => undefined,
        (reason: unknown) => reason as Error,
      )
      const error = refused ?? request.error ?? new Error('unknown error')
      const known = error instanceof AppError ? error : fromBodyParser(error)
      if (known) {
        if (known instanceof ChainUnavailable) countMetric('ChainUnavailable')
        request.response = jsonResponse(known.status, {
          ok: false,
          error: {
            code: known.code,
            message: known.message,
            ...(known.details && { details: known.details }),
          },
        })
        // Every 429 says when to come back (DECISIONS §10.4): at least a second.
        if (known instanceof TooManyRequests) {
          request.response.headers = {
            ...request.response.headers,
            'retry-after': String(Math.max(1, Math.ceil(known.retryAfterSeconds))),
          }
        }
        return
      }
      const requestId = requestIdOf(request)
      // The name only: messages of library errors may quote URLs or bodies, stacks name files.
      logger.error('unhandled error', {
        requestId,
        routeKey: request.event.routeKey,
        errorName: error.name,
      })
      request.response = jsonResponse(500, {
        ok: false,
        error: { code: 500, message: 'internal error', requestId },
      })
    },
  }
}
