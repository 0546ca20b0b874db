import type { Request } from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import type { Session } from '../db/sessionItem'
import type { SessionGate } from './sessionGate'

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
  /** The session's token family: from the session the guard read, or a refresh token's `fid`. */
  familyId?: string
}

/** An authentication strategy; built in lib/http/authGuard.ts so only routes using it carry jose. */
export interface Guard {
  audience: Audience
  tokenUse: TokenUse
  /** Verifies the token and checks its session (one GetItem): the usual way. */
  authenticate(authorizationHeader: string | undefined): Promise<Principal>
  /** Verifies the token only; the session must then be admitted (see lib/http/sessionGate.ts). */
  verify(authorizationHeader: string | undefined): Promise<Principal>
  /** Throws 401003 unless `session`, read for `principal`, is live. */
  admit(principal: Principal, session: Session | undefined): Promise<void>
}

export interface HandlerContext extends Context {
  principal?: Principal
  sessionGate?: SessionGate
  input?: { params: unknown; query: unknown; body: unknown }
}

export type HttpRequest = Request<HttpEvent, HttpResponse, Error, HandlerContext>

export function requestIdOf(request: HttpRequest): string {
  return request.event.requestContext?.requestId ?? request.context.awsRequestId
}
