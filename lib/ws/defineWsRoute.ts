import middy from '@middy/core'
import type { Context } from 'aws-lambda'
import type * as z from '../../schemas/zod'
import { loadWsConfig } from '../config/wsConfig'
import { type Connection, countMessage, getConnection } from '../db/wsConnection'
import { AppError, BadRequest, type ErrorDetail, TooManyRequests, Unauthorized } from '../errors'
import { UNAUTHORIZED } from '../errors'
import { logger } from '../logger'

// The one way to declare a route of the WebSocket API (DECISIONS §10.3), as defineHandler is for
// HTTP: the message parsed as JSON and validated with its zod schema, the connection's message
// rate counted and its session looked up, then the core; its answer, or any error as a typed error
// message, is the route's response, which API Gateway sends back on the connection.

export interface WsEvent {
  requestContext: {
    connectionId: string
    requestId?: string
    routeKey?: string
    /** When API Gateway received the message: the message rate counts arrivals, not handling. */
    requestTimeEpoch?: number
  }
  body?: string
}

export interface WsResponse {
  statusCode: number
  body: string
}

export interface WsRouteDefinition<Schema extends z.ZodMiniType | undefined, Reply> {
  /** The message's schema (undefined: the core takes the raw parsed body, `$default`). */
  message: Schema
  run: (input: {
    message: Schema extends z.ZodMiniType ? z.infer<Schema> : unknown
    connection: Connection
  }) => Promise<Reply> | Reply
}

function reply(body: unknown): WsResponse {
  return { statusCode: 200, body: JSON.stringify(body) }
}

/** A typed error as the message a client gets: `type: 'error'`, the status, code and message. */
export function errorMessage(error: AppError): Record<string, unknown> {
  return {
    type: 'error',
    status: error.status,
    code: error.code,
    message: error.message,
    ...(error.details && { details: error.details }),
    ...(error instanceof TooManyRequests && { retryAfterSeconds: error.retryAfterSeconds }),
  }
}

function parseJson(body: string | undefined): unknown {
  try {
    return JSON.parse(body ?? '')
  } catch {
    throw new BadRequest('the message is not valid JSON')
  }
}

function validate(schema: z.ZodMiniType, value: unknown): unknown {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const details: ErrorDetail[] = parsed.error.issues.map((issue) => ({
    path: ['message', ...issue.path].join('.'),
    message: issue.message,
  }))
  throw new BadRequest('the message is not valid', details)
}

export function defineWsRoute<Schema extends z.ZodMiniType | undefined, Reply>(
  definition: WsRouteDefinition<Schema, Reply>,
) {
  const core = async (event: WsEvent): Promise<WsResponse> => {
    const { connectionId } = event.requestContext
    const { maxMessagesPerSecond } = loadWsConfig()
    const [counted, connection] = await Promise.all([
      countMessage(
        connectionId,
        maxMessagesPerSecond,
        event.requestContext.requestTimeEpoch ?? Date.now(),
      ),
      getConnection(connectionId),
    ])
    if (!connection || connection.openUntil <= Date.now()) {
      throw new Unauthorized(
        UNAUTHORIZED.sessionEnded,
        'the connection is not known; connect again',
      )
    }
    if (!counted) {
      throw new TooManyRequests(
        `more than ${maxMessagesPerSecond} messages a second on this connection; slow down`,
        1,
      )
    }
    const body = parseJson(event.body)
    const message = definition.message ? validate(definition.message, body) : body
    return reply(await definition.run({ message: message as never, connection }))
  }
  return middy<WsEvent, WsResponse, Error, Context>(core).use({
    onError: (request: middy.Request<WsEvent, WsResponse, Error, Context>) => {
      const error = request.error ?? new Error('unknown error')
      if (error instanceof AppError) {
        request.response = reply(errorMessage(error))
        return
      }
      const requestId = request.event.requestContext.requestId ?? request.context.awsRequestId
      logger.error('unhandled error', {
        requestId,
        routeKey: request.event.requestContext.routeKey,
        errorName: error.name,
      })
      request.response = reply({
        type: 'error',
        status: 500,
        code: 500,
        message: 'internal error',
        requestId,
      })
    },
  })
}
