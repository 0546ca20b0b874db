import '../../support/env'
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import { decodeJwt, SignJWT } from 'jose'
import { randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import * as z from '../../../schemas/zod'
import { signToken } from '../../../lib/auth/tokens'
import { loadAuthConfig } from '../../../lib/config/authConfig'
import { db, tableName } from '../../../lib/db/client'
import { putSession } from '../../../lib/db/session'
import { walletGuard, walletRefreshGuard } from '../../../lib/auth/guard'
import { defineHandler } from '../../../lib/http/defineHandler'
import { DatabaseUnavailable, NotFound, UNAUTHORIZED } from '../../../lib/errors'
import type { Audience } from '../../../lib/db/session'
import { endSessionOf } from '../../support/liveSession'
import { type EnvelopeResponse, httpEvent, invoke } from '../../support/httpEvent'

const principalSchema = z.object({
  audience: z.enum(['wallet', 'account']),
  subject: z.string(),
  sessionId: z.string(),
  tokenId: z.string(),
  tokenUse: z.enum(['access', 'refresh']),
})

const whoAmI = defineHandler({
  auth: walletGuard,
  result: principalSchema,
  run: ({ principal }) => principal,
})

const refreshWhoAmI = defineHandler({
  auth: walletRefreshGuard,
  result: principalSchema,
  run: ({ principal }) => principal,
})

// One route per session mode whose core reads, then writes an item of its own (a mark keyed by
// its session) and answers, or fails after its read as the request asks: what an ended session
// gets from each.
const coreRuns: string[] = []
const markKey = (sessionId: string) => ({ pk: `TESTMARK#${sessionId}`, sk: 'MARK' })

function markingRoute(sessionRead: 'guard' | 'beside') {
  return defineHandler({
    auth: walletGuard,
    sessionRead,
    query: z.object({ fail: z.optional(z.enum(['missing', 'outage'])) }),
    result: principalSchema,
    run: async ({ principal, query }) => {
      coreRuns.push(principal.sessionId)
      await db().send(new GetCommand({ TableName: tableName(), Key: markKey('none') }))
      // Failing as asked after its read, before its write: what it answers must not be seen.
      if (query.fail === 'missing') throw new NotFound('no such item')
      if (query.fail === 'outage') throw new DatabaseUnavailable()
      await db().send(
        new PutCommand({ TableName: tableName(), Item: { ...markKey(principal.sessionId) } }),
      )
      return principal
    },
  })
}

const markingRoutes = { guard: markingRoute('guard'), beside: markingRoute('beside') }

const now = () => Math.floor(Date.now() / 1000)

function newWalletAddress(): string {
  return privateKeyToAccount(generatePrivateKey()).address
}

async function createSession(audience: Audience, subject: string, expiresAt = now() + 3600) {
  const sessionId = randomUUID()
  await putSession({
    sessionId,
    audience,
    subject,
    status: 'active',
    familyId: sessionId,
    createdAt: new Date().toISOString(),
    expiresAt,
  })
  return sessionId
}

interface HandMadeClaims {
  iss: string
  aud: string
  sub: string
  sid: string
  typ: string
  jti: string
  iat: number
  exp: number
}

/** Claims that our verifier would accept, for tokens the test signs (or fails to sign) itself. */
function validClaims(subject: string, sessionId: string): HandMadeClaims {
  return {
    iss: loadAuthConfig().issuer,
    aud: 'wallet',
    sub: subject,
    sid: sessionId,
    typ: 'access',
    jti: randomUUID(),
    iat: now(),
    exp: now() + 600,
  }
}

function signWith(claims: HandMadeClaims, key: string, alg = 'HS256'): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .sign(new TextEncoder().encode(key))
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

function ownSecret(): string {
  const secret = loadAuthConfig().jwtSecret
  if (!secret) throw new Error('the test stack sets JWT_SECRET')
  return secret
}

function call(
  handler: Parameters<typeof invoke>[0],
  authorization?: string,
): Promise<EnvelopeResponse> {
  return invoke(
    handler,
    httpEvent({
      routeKey: 'GET /api/v1/test/whoami',
      ...(authorization !== undefined && { headers: { authorization } }),
    }),
  )
}

function expectUnauthorized(response: EnvelopeResponse, code: number) {
  expect(response).toEqual({
    status: 401,
    body: { ok: false, error: { code, message: expect.any(String) } },
  })
}

describe('the wallet guard', () => {
  let subject: string
  let sessionId: string
  let accessToken: string
  let refreshToken: string

  beforeAll(async () => {
    subject = newWalletAddress()
    sessionId = await createSession('wallet', subject)
    accessToken = await signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'access' })
    refreshToken = await signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'refresh' })
  })

  describe('a live session', () => {
    it('hands the core the principal of a valid access token', async () => {
      const response = await call(whoAmI, `Bearer ${accessToken}`)

      expect(response).toEqual({
        status: 200,
        body: {
          ok: true,
          result: {
            audience: 'wallet',
            subject,
            sessionId,
            tokenId: decodeJwt(accessToken).jti,
            tokenUse: 'access',
          },
        },
      })
    })

    it('accepts the scheme in any casing and surrounding spaces', async () => {
      const response = await call(whoAmI, `  bearer ${accessToken} `)

      expect(response).toMatchObject({ status: 200, body: { ok: true, result: { sessionId } } })
    })

    it('hands a refresh route the principal of a valid refresh token', async () => {
      const response = await call(refreshWhoAmI, `Bearer ${refreshToken}`)

      expect(response).toEqual({
        status: 200,
        body: {
          ok: true,
          result: {
            audience: 'wallet',
            subject,
            sessionId,
            tokenId: decodeJwt(refreshToken).jti,
            tokenUse: 'refresh',
          },
        },
      })
    })
  })

  describe('401001: no usable bearer header', () => {
    it.each([
      ['there is no Authorization header', undefined],
      ['the scheme is Basic', 'Basic xyz'],
      ['Bearer has no token', 'Bearer'],
      ['the bearer token is not a JWT', 'Bearer not-a-jwt'],
      ['the token carries characters outside base64url', 'Bearer a+b.c/d.e=f'],
    ])('answers 401001 when %s', async (_case, authorization) => {
      const response = await call(whoAmI, authorization)

      expectUnauthorized(response, UNAUTHORIZED.missingToken)
    })
  })

  describe('401002: a token that does not verify', () => {
    it('answers 401002 when three segments do not decode', async () => {
      const response = await call(whoAmI, 'Bearer abc.def.ghi')

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when the token is signed with another secret', async () => {
      const token = await signWith(validClaims(subject, sessionId), `other-${randomUUID()}-secret`)

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when the token is unsigned (alg none)', async () => {
      const header = base64url({ alg: 'none', typ: 'JWT' })
      const token = `${header}.${base64url(validClaims(subject, sessionId))}.`

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when the token is HS512 with the right secret', async () => {
      const token = await signWith(validClaims(subject, sessionId), ownSecret(), 'HS512')

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when the token has expired', async () => {
      const token = await signToken({
        audience: 'wallet',
        subject,
        sessionId,
        tokenUse: 'access',
        issuedAt: now() - 24 * 3600,
      })

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when an account token reaches a wallet route', async () => {
      const accountId = randomUUID()
      const accountSessionId = await createSession('account', accountId)
      const token = await signToken({
        audience: 'account',
        subject: accountId,
        sessionId: accountSessionId,
        tokenUse: 'access',
      })

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when a refresh token reaches an access route', async () => {
      const response = await call(whoAmI, `Bearer ${refreshToken}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when an access token reaches a refresh route', async () => {
      const response = await call(refreshWhoAmI, `Bearer ${accessToken}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when another issuer signed the token', async () => {
      const claims = { ...validClaims(subject, sessionId), iss: 'someone-else' }
      const token = await signWith(claims, ownSecret())

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })

    it('answers 401002 when the session id claim is missing', async () => {
      const { sid: _sid, ...claims } = validClaims(subject, sessionId)
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(ownSecret()))

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.invalidToken)
    })
  })

  describe('401003: a session that has ended', () => {
    it('answers 401003 when the session has ended', async () => {
      const endedSubject = newWalletAddress()
      const endedSessionId = await createSession('wallet', endedSubject)
      const token = await signToken({
        audience: 'wallet',
        subject: endedSubject,
        sessionId: endedSessionId,
        tokenUse: 'access',
      })
      await endSessionOf(token)

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.sessionEnded)
    })

    it('answers 401003 when the session expired before DynamoDB removed it', async () => {
      const staleSubject = newWalletAddress()
      const staleSessionId = await createSession('wallet', staleSubject, now() - 1)
      const token = await signToken({
        audience: 'wallet',
        subject: staleSubject,
        sessionId: staleSessionId,
        tokenUse: 'access',
      })

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.sessionEnded)
    })

    it('answers 401003 when the token names a session of another subject', async () => {
      const token = await signToken({
        audience: 'wallet',
        subject: newWalletAddress(),
        sessionId,
        tokenUse: 'access',
      })

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.sessionEnded)
    })

    it('answers 401003 when the session was never created', async () => {
      const token = await signToken({
        audience: 'wallet',
        subject,
        sessionId: randomUUID(),
        tokenUse: 'access',
      })

      const response = await call(whoAmI, `Bearer ${token}`)

      expectUnauthorized(response, UNAUTHORIZED.sessionEnded)
    })
  })
})

/** The table commands that leave the client from now on, past the step where writes wait. */
function commandsSent(): string[] {
  const names: string[] = []
  const name = `commandsSent-${randomUUID()}`
  db().middlewareStack.add(
    (next, context) => (args) => {
      names.push(context.commandName ?? 'unknown')
      return next(args)
    },
    { step: 'build', name },
  )
  onTestFinished(() => {
    db().middlewareStack.remove(name)
  })
  return names
}

describe('the session rule, in each mode', () => {
  const token = (subject: string, sessionId: string) =>
    signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'access' })
  const send = (mode: 'guard' | 'beside', access: string, query: Record<string, string> = {}) =>
    invoke(
      markingRoutes[mode],
      httpEvent({
        routeKey: 'GET /api/v1/test/marks',
        headers: { authorization: `Bearer ${access}` },
        queryStringParameters: query,
      }),
    )
  const markOf = async (sessionId: string) =>
    (await db().send(new GetCommand({ TableName: tableName(), Key: markKey(sessionId) }))).Item

  it.each(['guard', 'beside'] as const)(
    '%s: answers a live session and writes what its core writes',
    async (mode) => {
      const subject = newWalletAddress()
      const live = await createSession('wallet', subject)
      const access = await token(subject, live)
      const sent = commandsSent()

      const answered = await send(mode, access)

      expect(answered.status).toBe(200)
      expect(answered.body.result).toMatchObject({ subject, sessionId: live })
      // The session's read, the core's read and the core's write, and nothing else.
      expect(sent.toSorted()).toEqual(['GetItemCommand', 'GetItemCommand', 'PutItemCommand'])
      expect(await markOf(live)).toEqual(markKey(live))
    },
  )

  it.each(['guard', 'beside'] as const)(
    '%s: answers 401003 and nothing else to a revoked or expired session, which writes nothing',
    async (mode) => {
      const subject = newWalletAddress()
      const revoked = await createSession('wallet', subject)
      const revokedToken = await token(subject, revoked)
      await endSessionOf(revokedToken)
      const expired = await createSession('wallet', subject, now() - 1)
      const expiredToken = await token(subject, expired)
      const sent = commandsSent()

      const responses = [
        await send(mode, revokedToken),
        await send(mode, expiredToken),
        // What the core would have answered instead: its 404, an outage, a refusal of the input.
        await send(mode, revokedToken, { fail: 'missing' }),
        await send(mode, expiredToken, { fail: 'outage' }),
        await send(mode, revokedToken, { fail: 'nonsense' }),
      ]

      for (const response of responses) expectUnauthorized(response, UNAUTHORIZED.sessionEnded)
      // Reads only: the session's, and with 'beside' the core's own; its write never left.
      expect(new Set(sent)).toEqual(new Set(['GetItemCommand']))
      expect([await markOf(revoked), await markOf(expired)]).toEqual([undefined, undefined])
      // 'guard' never runs the core; 'beside' runs it while the session is read.
      const ran = coreRuns.filter((sessionId) => sessionId === revoked || sessionId === expired)
      expect(ran.length).toBe(mode === 'guard' ? 0 : 4)
    },
  )

  it("beside: answers the core's own failure to a live session", async () => {
    const subject = newWalletAddress()
    const live = await createSession('wallet', subject)
    const access = await token(subject, live)

    const missing = await send('beside', access, { fail: 'missing' })
    const outage = await send('beside', access, { fail: 'outage' })
    const invalid = await send('beside', access, { fail: 'nonsense' })

    expect([missing.status, outage.status, invalid.status]).toEqual([404, 503, 400])
  })
})
