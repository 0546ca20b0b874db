import type { MiddlewareObj } from '@middy/core'
import httpJsonBodyParser from '@middy/http-json-body-parser'
import { BadRequest } from '../errors'
import type { HttpEvent, HttpRequest, HttpResponse } from './types'

/**
 * middy's JSON body parser, after one check of our own: a route that takes a body answers a
 * request without one with a 400 that says so, rather than the parser's 415.
 */
export function jsonBody(): MiddlewareObj<HttpEvent, HttpResponse> {
  const parser = httpJsonBodyParser()
  return {
    before: async (request: HttpRequest) => {
      const { body } = request.event
      if (body === undefined || body === null || body === '') {
        throw new BadRequest('this route takes a JSON body')
      }
      await parser.before?.(request as never)
    },
  }
}
