// Typed errors: each carries the HTTP status and the envelope code (DECISIONS §1). The error
// handler turns them into responses; everything else becomes a generic 500.

export interface ErrorDetail {
  path: string
  message: string
}

export class AppError extends Error {
  override name = 'AppError'
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message)
  }
}

export class BadRequest extends AppError {
  override name = 'BadRequest'
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 400, message, details)
  }
}

export const UNAUTHORIZED = {
  missingToken: 401001,
  invalidToken: 401002,
  sessionEnded: 401003,
  credentialsRejected: 401004,
} as const

export type UnauthorizedCode = (typeof UNAUTHORIZED)[keyof typeof UNAUTHORIZED]

/** What each 401 sub-code means, in one place: the OpenAPI document quotes these. */
export const UNAUTHORIZED_DESCRIPTIONS: Record<UnauthorizedCode, string> = {
  [UNAUTHORIZED.missingToken]: 'no bearer token, or a malformed Authorization header',
  [UNAUTHORIZED.invalidToken]:
    'token invalid: bad signature, expired, wrong issuer or of the wrong kind',
  [UNAUTHORIZED.sessionEnded]: 'session ended: logged out, rotated by a refresh, or revoked',
  [UNAUTHORIZED.credentialsRejected]: 'credentials rejected: signature, password or key',
}

export class Unauthorized extends AppError {
  override name = 'Unauthorized'
  constructor(code: UnauthorizedCode, message: string) {
    super(401, code, message)
  }
}

/** A class for an error whose envelope code is its HTTP status and whose only field is a message. */
function statusError(status: number, name: string) {
  return class extends AppError {
    override name = name
    constructor(message: string) {
      super(status, status, message)
    }
  }
}

export class NotFound extends statusError(404, 'NotFound') {}

export class Conflict extends statusError(409, 'Conflict') {}

export class PayloadTooLarge extends statusError(413, 'PayloadTooLarge') {}

export class UnsupportedMediaType extends statusError(415, 'UnsupportedMediaType') {}

/** A valid request the chain cannot serve: no liquidity, short balance or allowance. */
export class Unprocessable extends statusError(422, 'Unprocessable') {}

/**
 * A request that would make more calls into caller-chosen contracts than its budget (DECISIONS
 * §8.2): 422, and not an Unprocessable, which the quote reads as "no route" and skips.
 */
export class CallBudgetSpent extends AppError {
  override name = 'CallBudgetSpent'
  constructor(limit: number) {
    super(422, 422, `the request needs more than ${limit} calls into the contracts it names`)
  }
}

/**
 * A network configured without V3 pools or a SwapRouter02 (ChainConfig.v3 / swapRouter absent):
 * the V2-only path serves it, so callers check the configuration or catch this to fall back.
 */
/**
 * A request whose RPC calls reached its route's cap (lib/chain/rpcMeter.ts): the call past it
 * never left. 422, as CallBudgetSpent: the request itself costs more than any request may; the
 * cap is what the route charged the client's RPC budget up front (DECISIONS §10.4).
 */
export class RpcCallCapReached extends AppError {
  override name = 'RpcCallCapReached'
  constructor(cap: number) {
    super(422, 422, `the request needs more than the ${cap} RPC calls its route may make`)
  }
}

export class NoRouterConfigured extends AppError {
  override name = 'NoRouterConfigured'
  constructor(network: string) {
    super(422, 422, `${network} has no V3 pools or swap router configured`)
  }
}

/** A 429: every one says when to come back (DECISIONS §10.4), so the seconds are required. */
export class TooManyRequests extends AppError {
  override name = 'TooManyRequests'
  /** Sent as the `Retry-After` header, in seconds (at least 1). */
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 429, message)
  }
}

export class ChainUnavailable extends AppError {
  override name = 'ChainUnavailable'
  constructor(network: string, message = `the ${network} node did not answer; try again shortly`) {
    super(502, 502, message)
  }
}

export class DatabaseUnavailable extends AppError {
  override name = 'DatabaseUnavailable'
  constructor() {
    super(503, 503, 'the database is unavailable; try again shortly')
  }
}

/** A valid request for something the caller may not have (another wallet's trades). */
export class Forbidden extends statusError(403, 'Forbidden') {}
