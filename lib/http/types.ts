import type { Request } from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import type { Audience } from '../db/session'

export type HttpEvent = APIGatewayProxyEventV2
export type HttpResponse = APIGatewayProxyStructuredResultV2

export type { Audience }
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
  /** Verifies the token and admits its session (one GetItem): `sessionRead: 'guard'`. */
  authenticate(authorizationHeader: string | undefined): Promise<Principal>
  /** Verifies the token only: `sessionRead: 'beside'`, where `checkSession` runs beside the core. */
  verify(authorizationHeader: string | undefined): Promise<Principal>
  /** Reads the principal's session (one GetItem): 401003 unless it is live and the principal's. */
  checkSession(principal: Principal): Promise<void>
}

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
