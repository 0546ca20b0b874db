import type { Request } from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'

export type HttpEvent = APIGatewayProxyEventV2
export type HttpResponse = APIGatewayProxyStructuredResultV2

export type Audience = 'wallet' | 'account'
export type TokenUse = 'access' | 'refresh'

/** Who called: the verified claims of the bearer token, with its live session. */
export interface Principal {
  audience: Audience
  subject: string
  sessionId: string
  tokenId: string
  tokenUse: TokenUse
}

/** An authentication strategy; built in lib/http/authGuard.ts so only routes using it carry jose. */
export interface Guard {
  audience: Audience
  tokenUse: TokenUse
  authenticate(authorizationHeader: string | undefined): Promise<Principal>
}

export interface HandlerContext extends Context {
  principal?: Principal
  input?: { params: unknown; query: unknown; body: unknown }
}

export type HttpRequest = Request<HttpEvent, HttpResponse, Error, HandlerContext>

export function requestIdOf(request: HttpRequest): string {
  return request.event.requestContext?.requestId ?? request.context.awsRequestId
}
