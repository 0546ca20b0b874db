import type { MiddlewareObj } from '@middy/core'
import type * as z from '../../schemas/zod'
import { BadRequest, type ErrorDetail } from '../errors'
import type { HttpEvent, HttpRequest, HttpResponse } from './types'

export interface InputSchemas {
  params?: z.ZodMiniType
  query?: z.ZodMiniType
  body?: z.ZodMiniType
}

function parsePart(
  schema: z.ZodMiniType | undefined,
  value: unknown,
  location: string,
  details: ErrorDetail[],
): unknown {
  if (!schema) return undefined
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) {
    details.push({ path: [location, ...issue.path].join('.'), message: issue.message })
  }
  return undefined
}

/** Parses path, query and body with the route's zod schemas; all problems are reported at once. */
export function validateInput(schemas: InputSchemas): MiddlewareObj<HttpEvent, HttpResponse> {
  return {
    before: (request: HttpRequest) => {
      const details: ErrorDetail[] = []
      const { pathParameters, queryStringParameters, body } = request.event
      // API Gateway leaves out path and query parameters when there are none. The body is not
      // defaulted: JSON `null` is not an object, even where every field is optional.
      const input = {
        params: parsePart(schemas.params, pathParameters ?? {}, 'params', details),
        query: parsePart(schemas.query, queryStringParameters ?? {}, 'query', details),
        body: parsePart(schemas.body, body, 'body', details),
      }
      if (details.length > 0) throw new BadRequest('the request is not valid', details)
      request.context.input = input
    },
  }
}
