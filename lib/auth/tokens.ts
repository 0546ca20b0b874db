import { errors, jwtVerify, SignJWT } from 'jose'
import { randomUUID } from 'node:crypto'
import { loadAuthConfig } from '../config'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Audience, TokenUse } from '../http/types'
import { jwtSecret } from './jwtSecret'

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

/** Verifies signature, issuer, audience, expiry and use; any failure is 401002. */
export async function verifyToken(
  token: string,
  expected: VerifyTokenParameters,
): Promise<TokenClaims> {
  const config = loadAuthConfig()
  try {
    const { payload } = await jwtVerify(token, await jwtSecret(), {
      algorithms: [ALGORITHM],
      issuer: config.issuer,
      audience: expected.audience,
      requiredClaims: ['sub', 'sid', 'typ', 'jti', 'iat', 'exp'],
    })
    if (payload.typ !== expected.tokenUse) {
      throw invalid(`a ${expected.tokenUse} token is required`)
    }
    return {
      audience: expected.audience,
      subject: String(payload.sub),
      sessionId: String(payload.sid),
      tokenUse: expected.tokenUse,
      tokenId: String(payload.jti),
      expiresAt: Number(payload.exp),
      ...(typeof payload.fid === 'string' && { familyId: payload.fid }),
    }
  } catch (error) {
    if (error instanceof Unauthorized) throw error
    if (error instanceof errors.JWTExpired) throw invalid('the token has expired')
    if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') {
      throw invalid(`a ${expected.audience} token is required`)
    }
    if (error instanceof errors.JOSEError) throw invalid('the token is not valid')
    throw error
  }
}
