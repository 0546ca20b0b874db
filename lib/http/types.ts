import type { Request } from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import type { Audience, Session, SessionCondition } from '../db/sessionItem'
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
 * The caller's session, for a route that checks it with its own DynamoDB work rather than before
 * it (`sessionRead: 'route'` or `'beside'`); the guard has verified the token. One of, by the
 * route's kind of request:
 * - a read of several items: read `key` with them and hand the session item to `admit`;
 * - a transaction: hand the gate to the repository, which adds the session's ConditionCheck
 *   (lib/db/sessionCondition.ts) and calls `confirm` or `ended` (it is a SessionCondition);
 * - a conditional write of the session itself (refresh, logout): `confirm` once it succeeded;
 * - anything else: `check()`, the gate's own GetItem, started at most once (by defineHandler
 *   before the core with `sessionRead: 'beside'`) and awaited before anything irreversible, so it
 *   runs while the route's own reads do.
 * defineHandler refuses to answer (500) unless one of them admitted the session. Built in
 * sessionGate.ts.
 */
export interface SessionGate extends SessionCondition {
  readonly key: TableKey
  admit(sessionItem: Record<string, unknown> | undefined): Promise<void>
  check(): Promise<void>
  readonly admitted: boolean
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
