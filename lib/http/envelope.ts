import type { MiddlewareObj } from '@middy/core'
import type { HttpEvent, HttpResponse } from './types'

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export function jsonResponse(statusCode: number, payload: unknown): HttpResponse {
  return { statusCode, headers: JSON_HEADERS, body: JSON.stringify(payload) }
}

/** Wraps what a core returned in the success envelope `{ok: true, result}`. */
export function envelope(): MiddlewareObj<HttpEvent, HttpResponse> {
  return {
    after: (request) => {
      request.response = jsonResponse(200, { ok: true, result: request.response ?? {} })
    },
  }
}
