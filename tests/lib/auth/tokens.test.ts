import '../../support/env'
import { createHmac, randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signToken, verifyToken } from '../../../lib/auth/tokens'
import { loadAuthConfig } from '../../../lib/config/authConfig'

// verifyToken checks HS256 with node:crypto (not jose, which signs): what it must accept and
// refuse beyond the property tests of tests/support/badTokens.ts.

const secret = () => {
  const value = loadAuthConfig().jwtSecret
  if (!value) throw new Error('the test stack sets JWT_SECRET')
  return value
}
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)

function sign(claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const input = `${encode({ alg: 'HS256', typ: 'JWT', ...header })}.${encode(claims)}`
  return `${input}.${createHmac('sha256', secret()).update(input).digest('base64url')}`
}

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: loadAuthConfig().issuer,
    aud: 'wallet',
    sub: '0x0000000000000000000000000000000000000001',
    sid: randomUUID(),
    typ: 'access',
    jti: randomUUID(),
    iat: now(),
    exp: now() + 60,
    ...overrides,
  }
}

const wallet = { audience: 'wallet', tokenUse: 'access' } as const
const refusal = (message: string | RegExp) => ({ status: 401, code: 401002, message })

describe('verifyToken', () => {
  it('accepts what signToken signs (jose) and returns its claims', async () => {
    const sessionId = randomUUID()
    const token = await signToken({
      audience: 'wallet',
      subject: '0x0000000000000000000000000000000000000002',
      sessionId,
      tokenUse: 'refresh',
      familyId: 'family',
    })

    const verified = await verifyToken(token, { audience: 'wallet', tokenUse: 'refresh' })

    expect(verified).toMatchObject({ sessionId, tokenUse: 'refresh', familyId: 'family' })
  })

  it('accepts an audience list that names the expected audience', async () => {
    await expect(
      verifyToken(sign(claims({ aud: ['x', 'wallet'] })), wallet),
    ).resolves.toMatchObject({ audience: 'wallet' })
  })

  it.each([
    ['no signature', (token: string) => token.slice(0, token.lastIndexOf('.') + 1)],
    ['a fourth segment', (token: string) => `${token}.x`],
    // The last character of a 43-character signature carries two spare bits: another letter
    // decodes to the same bytes, and is refused so that a token has one spelling only.
    [
      'a non-canonical signature',
      (token: string) => {
        const last = token.at(-1) ?? ''
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
        const sibling = alphabet[alphabet.indexOf(last) ^ 1] ?? 'A'
        return `${token.slice(0, -1)}${sibling}`
      },
    ],
  ])('refuses a token with %s', async (_, tamper) => {
    await expect(verifyToken(tamper(sign(claims())), wallet)).rejects.toMatchObject(
      refusal('the token is not valid'),
    )
  })

  it.each([
    ['alg none', { alg: 'none' }],
    ['alg HS512', { alg: 'HS512' }],
    ['a crit header', { crit: ['exp'] }],
  ])('refuses %s even when the HMAC matches', async (_, header) => {
    await expect(verifyToken(sign(claims(), header), wallet)).rejects.toMatchObject(
      refusal('the token is not valid'),
    )
  })

  it.each([
    ['expired', claims({ exp: now() - 1 }), 'the token has expired'],
    ['not yet valid', claims({ nbf: now() + 60 }), 'the token is not valid'],
    ['exp as a string', claims({ exp: String(now() + 60) }), 'the token is not valid'],
    ['no audience', claims({ aud: undefined }), 'a wallet token is required'],
    ['another audience', claims({ aud: 'account' }), 'a wallet token is required'],
    ['another issuer', claims({ iss: 'elsewhere' }), 'the token is not valid'],
    ['another use', claims({ typ: 'refresh' }), 'a access token is required'],
    ['no jti', claims({ jti: undefined }), 'the token is not valid'],
  ])('refuses a token %s', async (_, payload, message) => {
    await expect(verifyToken(sign(payload), wallet)).rejects.toMatchObject(refusal(message))
  })

  it('refuses a payload that is not a JSON object', async () => {
    const input = `${encode({ alg: 'HS256' })}.${Buffer.from('[1]').toString('base64url')}`
    const token = `${input}.${createHmac('sha256', secret()).update(input).digest('base64url')}`

    await expect(verifyToken(token, wallet)).rejects.toMatchObject(
      refusal('the token is not valid'),
    )
  })
})
