import type { Request } from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import type { Principal } from '../auth/principal'

export type HttpEvent = APIGatewayProxyEventV2
export type HttpResponse = APIGatewayProxyStructuredResultV2

export interface HandlerContext extends Context {
  principal?: Principal
  /** With `sessionRead: 'beside'`: the session check, running beside the core (lib/admission.ts). */
  admission?: Promise<void>
  input?: { params: unknown; query: unknown; body: unknown }
}

export type HttpRequest = Request<HttpEvent, HttpResponse, Error, HandlerContext>

export function requestIdOf(request: HttpRequest): string {
  return request.event.requestContext?.requestId ?? request.context.awsRequestId
}

/** The caller's address as API Gateway gives it (`requestContext.http.sourceIp`). */
export function sourceIpOf(event: HttpEvent): string {
  return event.requestContext?.http?.sourceIp ?? 'unknown'
}
