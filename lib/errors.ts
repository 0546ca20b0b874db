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

export class NotFound extends AppError {
  override name = 'NotFound'
  constructor(message: string) {
    super(404, 404, message)
  }
}

export class Conflict extends AppError {
  override name = 'Conflict'
  constructor(message: string) {
    super(409, 409, message)
  }
}

export class PayloadTooLarge extends AppError {
  override name = 'PayloadTooLarge'
  constructor(message: string) {
    super(413, 413, message)
  }
}

export class UnsupportedMediaType extends AppError {
  override name = 'UnsupportedMediaType'
  constructor(message: string) {
    super(415, 415, message)
  }
}

/** A valid request the chain cannot serve: no liquidity, short balance or allowance. */
export class Unprocessable extends AppError {
  override name = 'Unprocessable'
  constructor(message: string) {
    super(422, 422, message)
  }
}

export class TooManyRequests extends AppError {
  override name = 'TooManyRequests'
  /** Sent as the `Retry-After` header, in seconds. */
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(429, 429, message)
  }
}

export class ChainUnavailable extends AppError {
  override name = 'ChainUnavailable'
  constructor(network: string) {
    super(502, 502, `the ${network} node did not answer; try again shortly`)
  }
}

export class DatabaseUnavailable extends AppError {
  override name = 'DatabaseUnavailable'
  constructor() {
    super(503, 503, 'the database is unavailable; try again shortly')
  }
}
