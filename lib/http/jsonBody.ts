import type { MiddlewareObj } from '@middy/core'
import httpJsonBodyParser from '@middy/http-json-body-parser'
import { BadRequest, PayloadTooLarge } from '../errors'
import type { HttpEvent, HttpRequest, HttpResponse } from './types'

/** DECISIONS §7.1: a larger body is refused before it is parsed. */
export const MAX_BODY_BYTES = 64 * 1024

/** The body's size in bytes as sent, without decoding or parsing it. */
function rawBodyBytes(body: string, isBase64Encoded: boolean | undefined): number {
  if (!isBase64Encoded) return Buffer.byteLength(body, 'utf8')
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0
  return Math.floor((body.length * 3) / 4) - padding
}

/**
 * middy's JSON body parser, after two checks of our own: a body over 64 KB is 413 unparsed, and a
 * route that takes a body answers a request without one with a 400 that says so, rather than the
 * parser's 415.
 */
export function jsonBody(): MiddlewareObj<HttpEvent, HttpResponse> {
  const parser = httpJsonBodyParser()
  return {
    before: async (request: HttpRequest) => {
      const { body } = request.event
      if (body === undefined || body === null || body === '') {
        throw new BadRequest('this route takes a JSON body')
      }
      if (rawBodyBytes(body, request.event.isBase64Encoded) > MAX_BODY_BYTES) {
        throw new PayloadTooLarge(`the body is larger than ${MAX_BODY_BYTES / 1024} KB`)
      }
      await parser.before?.(request as never)
    },
  }
}
