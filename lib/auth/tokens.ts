import { SignJWT } from 'jose'
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { loadAuthConfig } from '../config/authConfig'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Audience } from '../db/session'
import { jwtSecret } from './jwtSecret'
import type { TokenUse } from './principal'

// One algorithm, pinned on verify: a token that names another (or `none`) is refused.
const ALGORITHM = 'HS256'

export interface TokenClaims {
  audience: Audience
  subject: string
  sessionId: string
  tokenUse: TokenUse
  tokenId: string
  expiresAt: number
  /** `fid`, on refresh tokens: the session's token family, so a refresh needs no session read. */
  familyId?: string
}

export interface SignTokenParameters {
  audience: Audience
  subject: string
  sessionId: string
  tokenUse: TokenUse
  /** Seconds since the epoch; defaults to now. */
  issuedAt?: number
  /** The session's token family, carried by refresh tokens as `fid`. */
  familyId?: string
}

export async function signToken(parameters: SignTokenParameters): Promise<string> {
  const config = loadAuthConfig()
  const issuedAt = parameters.issuedAt ?? Math.floor(Date.now() / 1000)
  const lifetime =
    parameters.tokenUse === 'access' ? config.accessTokenTtlSeconds : config.refreshTokenTtlSeconds
  return new SignJWT({
    sid: parameters.sessionId,
    typ: parameters.tokenUse,
    ...(parameters.tokenUse === 'refresh' && parameters.familyId && { fid: parameters.familyId }),
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(config.issuer)
    .setAudience(parameters.audience)
    .setSubject(parameters.subject)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetime)
    .sign(await jwtSecret())
}

export interface VerifyTokenParameters {
  audience: Audience
  tokenUse: TokenUse
}

function invalid(message: string): Unauthorized {
  return new Unauthorized(UNAUTHORIZED.invalidToken, message)
}

const NOT_VALID = 'the token is not valid'
const REQUIRED_CLAIMS = ['iss', 'aud', 'sub', 'sid', 'typ', 'jti', 'iat', 'exp'] as const
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A base64url segment's bytes; strict: it must be exactly what those bytes encode to. */
function decodeSegment(segment: string): Buffer {
  const bytes = Buffer.from(segment, 'base64url')
  if (bytes.toString('base64url') !== segment) throw invalid(NOT_VALID)
  return bytes
}

/** A segment holding a JSON object (a JWS header or a JWT claims set). */
function jsonSegment(segment: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(utf8.decode(decodeSegment(segment)))
  } catch (error) {
    if (error instanceof Unauthorized) throw error
    throw invalid(NOT_VALID)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(NOT_VALID)
  return value as Record<string, unknown>
}

/**
 * The claims of a compact JWS signed with HS256 under `secret`: the header must name HS256 and
 * nothing it would have to understand (`crit`), and the HMAC over `header.payload` must match,
 * compared in constant time. node:crypto's HMAC rather than jose's WebCrypto path, which cost a
 * cold function about 4 ms on its first verification (the key import and an asynchronous sign).
 */
function verifiedClaims(token: string, secret: Uint8Array): Record<string, unknown> {
  const segments = token.split('.')
  if (segments.length !== 3) throw invalid(NOT_VALID)
  const [header = '', payload = '', signature = ''] = segments
  const protectedHeader = jsonSegment(header)
  if (protectedHeader.alg !== ALGORITHM || 'crit' in protectedHeader) throw invalid(NOT_VALID)
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest()
  const given = decodeSegment(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalid(NOT_VALID)
  }
  return jsonSegment(payload)
}

/** A NumericDate claim (seconds since the epoch), when present; any other type is refused. */
function numericDate(claims: Record<string, unknown>, claim: string): number | undefined {
  const value = claims[claim]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(NOT_VALID)
  return value
}

/**
 * Verifies signature, issuer, audience, expiry and use; any failure is 401002. The checks and
 * their order are jose's `jwtVerify` with these options (every claim present, then issuer and
 * audience, then the dates), which signs the tokens (signToken) and verified them before.
 */
export async function verifyToken(
  token: string,
  expected: VerifyTokenParameters,
): Promise<TokenClaims> {
  const config = loadAuthConfig()
  const claims = verifiedClaims(token, await jwtSecret())
  const audienceRequired = invalid(`a ${expected.audience} token is required`)
  for (const claim of REQUIRED_CLAIMS) {
    if (!Object.hasOwn(claims, claim)) throw claim === 'aud' ? audienceRequired : invalid(NOT_VALID)
  }
  if (claims.iss !== config.issuer) throw invalid(NOT_VALID)
  const audience = claims.aud
  const audiences = Array.isArray(audience) ? audience : [audience]
  if (!audiences.includes(expected.audience)) throw audienceRequired
  const now = Math.floor(Date.now() / 1000)
  numericDate(claims, 'iat')
  const notBefore = numericDate(claims, 'nbf')
  if (notBefore !== undefined && notBefore > now) throw invalid(NOT_VALID)
  const expiresAt = numericDate(claims, 'exp') ?? 0
  if (expiresAt <= now) throw invalid('the token has expired')
  if (claims.typ !== expected.tokenUse) throw invalid(`a ${expected.tokenUse} token is required`)
  return {
    audience: expected.audience,
    subject: String(claims.sub),
    sessionId: String(claims.sid),
    tokenUse: expected.tokenUse,
    tokenId: String(claims.jti),
    expiresAt,
    ...(typeof claims.fid === 'string' && { familyId: claims.fid }),
  }
}
