import '../../support/env'
import * as fc from 'fast-check'
import { jwtVerify } from 'jose'
import { createHmac, randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { verifyToken } from '../../../lib/auth/tokens'
import { loadAuthConfig } from '../../../lib/config/authConfig'

// Issue 24 point 8: lib/auth/tokens.ts verifies HS256 with node:crypto, where jose's `jwtVerify`
// (which signed and verified tokens before) is the reference. Over valid, tampered and malformed
// tokens both must agree, except where ours is deliberately stricter: a segment that is not the
// canonical base64url of its bytes (jose decodes it leniently, so a signature with other padding
// bits passes there), and any `crit` header, which ours refuses whole.

const REQUIRED = ['iss', 'aud', 'sub', 'sid', 'typ', 'jti', 'iat', 'exp']
const expected = { audience: 'wallet', tokenUse: 'access' } as const

function secret(): string {
  const value = loadAuthConfig().jwtSecret
  if (!value) throw new Error('the test stack sets JWT_SECRET')
  return value
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

function sign(header: Record<string, unknown>, claims: Record<string, unknown>): string {
  const input = `${encode(header)}.${encode(claims)}`
  return `${input}.${createHmac('sha256', secret()).update(input).digest('base64url')}`
}

const now = () => Math.floor(Date.now() / 1000)
const absent = Symbol('absent')

/** A claim's value among ones that pass and ones that do not, or the claim left out. */
const claimValue = <Value>(...values: Value[]) =>
  fc.oneof(fc.constantFrom(...values), fc.constant(absent))

const claimsArbitrary = fc
  .record({
    iss: claimValue<unknown>(loadAuthConfig().issuer, 'someone-else', 7),
    aud: claimValue<unknown>('wallet', 'account', ['x', 'wallet'], ['account'], 1),
    sub: claimValue<unknown>('0x0000000000000000000000000000000000000001', 2),
    sid: claimValue(randomUUID()),
    typ: claimValue('access', 'refresh', 'ACCESS'),
    jti: claimValue(randomUUID()),
    iat: claimValue<unknown>(now(), '1700000000', null),
    nbf: claimValue<unknown>(now() - 60, now() + 600, 'soon'),
    exp: claimValue<unknown>(now() + 600, now() - 60, `${now() + 600}`, 1e308),
    fid: claimValue<unknown>('family', 3),
  })
  .map((record) =>
    Object.fromEntries(Object.entries(record).filter(([, value]) => value !== absent)),
  )

/** Claims that pass every check, so tampering starts from tokens both accept. */
const validClaims = fc.constant(null).map(() => ({
  iss: loadAuthConfig().issuer,
  aud: 'wallet',
  sub: '0x0000000000000000000000000000000000000001',
  sid: randomUUID(),
  typ: 'access',
  jti: randomUUID(),
  iat: now(),
  exp: now() + 600,
}))

/** Per claim, values that each should fail on their own (`absent`: the claim left out). */
const WRONG: Record<string, unknown[]> = {
  iss: [absent, 'someone-else', 7],
  aud: [absent, 'account', ['account'], 1],
  sub: [absent],
  sid: [absent],
  typ: [absent, 'refresh', 'ACCESS'],
  jti: [absent],
  iat: [absent, '1700000000', null],
  nbf: [now() + 600, 'soon'],
  exp: [absent, now() - 60, `${now() + 600}`],
}

/** Valid claims with exactly one of them wrong: each check of the verifier met on its own. */
const oneClaimOff = fc
  .tuple(validClaims, fc.constantFrom(...Object.keys(WRONG)), fc.nat())
  .map(([claims, claim, pick]) => {
    const wrongs = WRONG[claim] ?? [absent]
    const value = wrongs[pick % wrongs.length]
    const changed: Record<string, unknown> = { ...claims }
    if (value === absent) delete changed[claim]
    else changed[claim] = value
    return changed
  })

const headerArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ alg: 'HS256', typ: 'JWT' }) },
  fc.constantFrom(
    { alg: 'HS256' },
    { alg: 'HS512', typ: 'JWT' },
    { alg: 'none', typ: 'JWT' },
    { alg: 'hs256', typ: 'JWT' },
    { alg: 'HS256', crit: ['b64'], b64: true },
    { alg: 'HS256', crit: ['exp'] },
  ),
)

/** A change an attacker can make without the secret. */
const tamper = fc.oneof(
  fc.constant((token: string) => token),
  fc
    .tuple(fc.nat(), fc.constantFrom(...'AQgwz019-_.=+/ '.split('')))
    .map(([at, character]) => (token: string) => {
      const index = at % token.length
      return `${token.slice(0, index)}${character}${token.slice(index + 1)}`
    }),
  fc.nat().map((cut) => (token: string) => token.slice(0, cut % token.length)),
  fc.constantFrom('.', '..', '=', 'A').map((suffix) => (token: string) => `${token}${suffix}`),
  // The signature of another claims set.
  claimsArbitrary.map((other) => (token: string) => {
    const [header = '', , signature = ''] = token.split('.')
    return `${header}.${encode(other)}.${signature}`
  }),
)

const signedTokens = fc
  .tuple(headerArbitrary, fc.oneof(validClaims, oneClaimOff, claimsArbitrary), tamper)
  .map(([header, claims, change]) => change(sign(header, claims)))

const malformedTokens = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc
    .array(fc.base64String({ maxLength: 40 }), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join('.')),
)

async function accepts(verify: () => Promise<unknown>): Promise<boolean> {
  return verify().then(
    () => true,
    () => false,
  )
}

const ours = (token: string) => accepts(() => verifyToken(token, expected))

const jose = (token: string) =>
  accepts(async () => {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret()), {
      algorithms: ['HS256'],
      issuer: loadAuthConfig().issuer,
      audience: expected.audience,
      requiredClaims: REQUIRED,
    })
    if (payload.typ !== expected.tokenUse) throw new Error('another use')
  })

/** Where ours refuses what jose may accept, by design. */
function stricterByDesign(token: string): boolean {
  const segments = token.split('.')
  const canonical = segments.every(
    (segment) => Buffer.from(segment, 'base64url').toString('base64url') === segment,
  )
  if (!canonical) return true
  try {
    const header = JSON.parse(Buffer.from(segments[0] ?? '', 'base64url').toString()) as unknown
    return typeof header === 'object' && header !== null && 'crit' in header
  } catch {
    return false
  }
}

describe('verifyToken against jose.jwtVerify', () => {
  it('agrees on valid, tampered and malformed tokens (ours stricter only by design)', async () => {
    let bothAccepted = 0
    await fc.assert(
      fc.asyncProperty(fc.oneof(signedTokens, malformedTokens), async (token) => {
        const [mine, reference] = await Promise.all([ours(token), jose(token)])
        if (mine && reference) bothAccepted += 1
        if (mine !== reference) {
          // Never more lenient than jose; stricter only where it means to be.
          expect(mine).toBe(false)
          expect(stricterByDesign(token)).toBe(true)
        }
      }),
      { numRuns: 600 },
    )
    // The property ran through accepted tokens too, not only refusals.
    expect(bothAccepted).toBeGreaterThan(0)
  })

  it('accepts exactly what jose accepts for a well-formed token of every claim combination', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(oneClaimOff, claimsArbitrary), async (claims) => {
        const token = sign({ alg: 'HS256', typ: 'JWT' }, claims)
        expect(await ours(token)).toBe(await jose(token))
      }),
      { numRuns: 300 },
    )
  })
})
