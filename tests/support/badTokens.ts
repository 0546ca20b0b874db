import * as fc from 'fast-check'
import { createHmac, randomUUID } from 'node:crypto'
import { UNAUTHORIZED } from '../../lib/errors'
import type { TokenUse } from '../../lib/auth/principal'
import type { Audience } from '../../lib/db/session'
import {
  base64UrlString,
  describeValue,
  type MalformedRequest,
  malformed,
  nonAscii,
  type RequestParts,
} from './malformedRequests'

// Bearer tokens that a guard must refuse, each with the sub-code it must answer (DECISIONS §1):
// 401001 for no or a malformed header, 401002 for a token that does not verify or is of another
// kind, 401003 for a token that verifies but whose session is not there. Tokens are signed here
// with node:crypto (HS256 is an HMAC over `header.payload`), so the arbitraries stay synchronous.

/** The guard a route uses and a live session of that kind to build tokens from. */
export interface TokenRealm {
  audience: Audience
  tokenUse: TokenUse
  sessionId: string
  subject: string
  /** The service's signing secret and issuer. */
  secret: Uint8Array
  issuer: string
  /** A token the route accepts: used only inside broken headers. */
  validToken: string
}

type Claims = Record<string, unknown>

const HMAC_OF: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

function signJwt(claims: Claims, secret: Uint8Array, alg = 'HS256'): string {
  const input = `${encode({ alg, typ: 'JWT' })}.${encode(claims)}`
  const signature = createHmac(HMAC_OF[alg] ?? 'sha256', secret)
    .update(input)
    .digest('base64url')
  return `${input}.${signature}`
}

function claimsOf(realm: TokenRealm, overrides: Claims = {}): Claims {
  const now = Math.floor(Date.now() / 1000)
  return {
    iss: realm.issuer,
    aud: realm.audience,
    sub: realm.subject,
    sid: realm.sessionId,
    typ: realm.tokenUse,
    jti: randomUUID(),
    iat: now,
    exp: now + 900,
    ...overrides,
  }
}

const otherAudience = (audience: Audience): Audience =>
  audience === 'wallet' ? 'account' : 'wallet'
const otherUse = (use: TokenUse): TokenUse => (use === 'access' ? 'refresh' : 'access')

/** Requests like `valid` but with a bearer header (or none) that the route's guard refuses. */
export function tokenBreakers(
  valid: RequestParts,
  realm: TokenRealm,
): fc.Arbitrary<MalformedRequest>[] {
  const { authorization: _valid, ...headers } = valid.headers ?? {}
  const withHeader = (category: string, broken: string, header: string, code: number) =>
    malformed(
      category,
      broken,
      { ...valid, headers: { ...headers, authorization: header } },
      { status: 401, code },
      [realm.validToken],
    )
  const signed = (category: string, broken: string, token: string, code: number) =>
    withHeader(category, broken, `Bearer ${token}`, code)
  const INVALID = UNAUTHORIZED.invalidToken
  const ENDED = UNAUTHORIZED.sessionEnded

  return [
    fc.constant(
      malformed(
        'no token',
        'no Authorization header',
        { ...valid, headers },
        {
          status: 401,
          code: UNAUTHORIZED.missingToken,
        },
      ),
    ),
    // Without two dots nothing can pass for a JWT, whatever the scheme.
    fc
      .oneof(
        fc
          .constantFrom('Basic', 'Token', 'Digest', 'JWT', 'Bearer:', 'Bearer-', '')
          .map((scheme) => `${scheme} ${realm.validToken}`),
        fc.constantFrom('Bearer', 'Bearer ', realm.validToken, `Bearer "${realm.validToken}"`),
        fc.constant(`Bearer ${realm.validToken} ${realm.validToken}`),
        fc.constant(`Bearer ${realm.validToken},${realm.validToken}`),
        fc.constant(`Bearer ${realm.validToken}.x`),
        fc.constant(`Bearer\t${realm.validToken}`),
        nonAscii.map((junk) => `Bearer ${junk.replaceAll('.', '')}`),
        fc.string({ unit: 'binary', maxLength: 60 }).map((junk) => junk.replaceAll('.', '')),
      )
      .map((header) =>
        withHeader(
          'malformed header',
          `Authorization ${describeValue(header.replace(realm.validToken, '<token>'))}`,
          header,
          UNAUTHORIZED.missingToken,
        ),
      ),
    fc
      .tuple(base64UrlString(1, 80), base64UrlString(1, 200), base64UrlString(0, 60))
      .map(([header, payload, signature]) =>
        signed(
          'garbage token',
          'three base64url segments',
          `${header}.${payload}.${signature}`,
          INVALID,
        ),
      ),
    fc
      .uint8Array({ minLength: 32, maxLength: 64 })
      .map((secret) =>
        signed(
          'forged token',
          'signed with another secret',
          signJwt(claimsOf(realm), secret),
          INVALID,
        ),
      ),
    fc.constantFrom('none', 'None', 'NONE').map((alg) => {
      const token = `${encode({ alg, typ: 'JWT' })}.${encode(claimsOf(realm))}.`
      return signed('unsigned token', `alg ${alg}`, token, INVALID)
    }),
    fc
      .constantFrom('HS384', 'HS512', 'RS256')
      .map((alg) =>
        signed(
          'other algorithm',
          `alg ${alg}`,
          signJwt(claimsOf(realm), realm.secret, alg),
          INVALID,
        ),
      ),
    fc.integer({ min: 5, max: 10_000_000 }).map((ago) => {
      const now = Math.floor(Date.now() / 1000)
      const claims = claimsOf(realm, { iat: now - ago - 900, exp: now - ago })
      return signed('expired token', `expired ${ago} s ago`, signJwt(claims, realm.secret), INVALID)
    }),
    fc
      .oneof(
        fc.constant<unknown>(otherAudience(realm.audience)),
        fc.constant<unknown>([otherAudience(realm.audience)]),
        fc.string({ maxLength: 20 }).filter((aud) => aud !== realm.audience),
      )
      .map((aud) =>
        signed(
          'wrong audience',
          `aud ${describeValue(aud)}`,
          signJwt(claimsOf(realm, { aud }), realm.secret),
          INVALID,
        ),
      ),
    fc
      .oneof(
        fc.constant<unknown>(otherUse(realm.tokenUse)),
        fc.string({ maxLength: 20 }),
        fc.integer(),
      )
      .filter((typ) => typ !== realm.tokenUse)
      .map((typ) =>
        signed(
          'wrong token use',
          `typ ${describeValue(typ)}`,
          signJwt(claimsOf(realm, { typ }), realm.secret),
          INVALID,
        ),
      ),
    fc
      .string({ maxLength: 30 })
      .filter((iss) => iss !== realm.issuer)
      .map((iss) =>
        signed(
          'wrong issuer',
          `iss ${describeValue(iss)}`,
          signJwt(claimsOf(realm, { iss }), realm.secret),
          INVALID,
        ),
      ),
    fc.constantFrom('sub', 'sid', 'typ', 'jti', 'iat', 'exp').map((claim) => {
      const { [claim]: _left, ...claims } = claimsOf(realm)
      return signed('missing claim', `no ${claim}`, signJwt(claims, realm.secret), INVALID)
    }),
    fc.constantFrom('iat', 'exp').map((claim) => {
      const claims = claimsOf(realm)
      const token = signJwt({ ...claims, [claim]: String(claims[claim]) }, realm.secret)
      return signed('malformed claim', `${claim} as a string`, token, INVALID)
    }),
    fc.uuid().map((subject) => {
      const [header, , signature] = signJwt(claimsOf(realm), realm.secret).split('.')
      const token = `${header}.${encode(claimsOf(realm, { sub: subject }))}.${signature}`
      return signed('tampered token', 'payload changed after signing', token, INVALID)
    }),
    fc
      .uuid()
      .map((sid) =>
        signed(
          'ended session',
          'unknown session id',
          signJwt(claimsOf(realm, { sid }), realm.secret),
          ENDED,
        ),
      ),
    fc
      .oneof(fc.uuid(), base64UrlString(1, 40))
      .filter((sub) => sub.toLowerCase() !== realm.subject.toLowerCase())
      .map((sub) =>
        signed(
          'session of another subject',
          'live session id, other subject',
          signJwt(claimsOf(realm, { sub }), realm.secret),
          ENDED,
        ),
      ),
  ]
}
