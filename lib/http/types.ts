import type { Request } from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import type { Audience, Session } from '../db/sessionItem'
import type { TableKey } from '../db/keys'

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
  /** Verifies the token and checks its session (one GetItem): the usual way. */
  authenticate(authorizationHeader: string | undefined): Promise<Principal>
  /** Verifies the token only; the session must then be admitted (see lib/http/sessionGate.ts). */
  verify(authorizationHeader: string | undefined): Promise<Principal>
  /** Throws 401003 unless `session`, read for `principal`, is live. */
  admit(principal: Principal, session: Session | undefined): Promise<void>
  /** Reads the principal's session (one GetItem) and admits it. */
  checkSession(principal: Principal): Promise<void>
}

/**
 * For a route that checks the caller's session in the same DynamoDB call as its own work: the
 * guard has verified the token; the route reads `key` with its items and hands the session item
 * to `admit`, or makes a write conditional on the session being live and calls `confirm` once it
 * succeeded. defineHandler refuses to answer if the route did neither. Built in sessionGate.ts.
 */
export interface SessionGate {
  readonly key: TableKey
  admit(sessionItem: Record<string, unknown> | undefined): Promise<void>
  /** The route's own conditional write required the session live and the caller's. */
  confirm(): void
  readonly admitted: boolean
}

export interface HandlerContext extends Context {
  principal?: Principal
  sessionGate?: SessionGate
  /** With `sessionRead: 'beside'`: the session check, running while the core runs. */
  sessionCheck?: Promise<void>
  input?: { params: unknown; query: unknown; body: unknown }
}

export type HttpRequest = Request<HttpEvent, HttpResponse, Error, HandlerContext>

export function requestIdOf(request: HttpRequest): string {
  return request.event.requestContext?.requestId ?? request.context.awsRequestId
}
