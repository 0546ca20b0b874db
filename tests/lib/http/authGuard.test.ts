import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { decodeJwt, SignJWT } from 'jose'
import { randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from '../../../schemas/zod'
import { signToken } from '../../../lib/auth/tokens'
import { loadAuthConfig } from '../../../lib/config'
import { db, tableName } from '../../../lib/db/client'
import { deleteSession, putSession } from '../../../lib/db/session'
import { walletGuard, walletRefreshGuard } from '../../../lib/http/authGuard'
import { defineHandler } from '../../../lib/http/defineHandler'
import { BadRequest, DatabaseUnavailable, NotFound, UNAUTHORIZED } from '../../../lib/errors'
import type { Audience } from '../../../lib/http/types'
import { spyOnDbSend } from '../../support/dbSendSpy'
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

// Routes that read the session beside their own items (sessionRead: 'route').
const whoAmIReadingSession = defineHandler({
  auth: walletGuard,
  sessionRead: 'route',
  result: principalSchema,
  run: async ({ principal, session }) => {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: session?.key ?? {}, ConsistentRead: true }),
    )
    await session?.admit(Item)
    return principal
  },
})

// A route checking its session with its own work that fails first, as the header asks: a refusal
// of its input (400), or an outage (503).
const failingBeforeItsRead = defineHandler({
  auth: walletGuard,
  sessionRead: 'route',
  result: principalSchema,
  run: ({ headers }) => {
    if (headers['x-fail'] === 'outage') throw new DatabaseUnavailable()
    throw new BadRequest('the request is not valid')
  },
})

const whoAmIForgettingSession = defineHandler({
  auth: walletGuard,
  sessionRead: 'route',
  result: principalSchema,
  run: ({ principal }) => principal,
})

// A read route checking its session beside its own read (sessionRead: 'beside'): the core
// records that it ran, and throws a 404 when asked to, to see which answer wins.
const coreRuns: string[] = []
const whoAmIBeside = defineHandler({
  auth: walletGuard,
  sessionRead: 'beside',
  result: principalSchema,
  run: ({ principal, headers }) => {
    coreRuns.push(principal.sessionId)
    if (headers['x-missing'] === '1') throw new NotFound('no such item')
    return principal
  },
})

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
      await deleteSession(endedSessionId)

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

describe('a read route that checks its session beside its own read', () => {
  it('answers for a live session, and 401003 for an ended one though its core answered', async () => {
    const subject = newWalletAddress()
    const live = await createSession('wallet', subject)
    const ended = await createSession('wallet', subject, now() - 1)
    const token = (sessionId: string) =>
      signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'access' })

    const answered = await call(whoAmIBeside, `Bearer ${await token(live)}`)
    const refused = await call(whoAmIBeside, `Bearer ${await token(ended)}`)

    expect(answered.status).toBe(200)
    expect(answered.body.result).toMatchObject({ subject, sessionId: live })
    expectUnauthorized(refused, UNAUTHORIZED.sessionEnded)
    // The core ran for both: the check ran beside it, not before it.
    expect(coreRuns).toEqual(expect.arrayContaining([live, ended]))
  })

  it("answers 401003, not the core's 404, for an ended session", async () => {
    const subject = newWalletAddress()
    const ended = await createSession('wallet', subject, now() - 1)
    const token = await signToken({
      audience: 'wallet',
      subject,
      sessionId: ended,
      tokenUse: 'access',
    })

    const response = await invoke(
      whoAmIBeside,
      httpEvent({
        routeKey: 'GET /api/v1/test/whoami',
        headers: { authorization: `Bearer ${token}`, 'x-missing': '1' },
      }),
    )

    expectUnauthorized(response, UNAUTHORIZED.sessionEnded)
  })
})

describe('a route that reads its own session', () => {
  it('answers for a live session, and 401003 for an ended one, like the guard', async () => {
    const subject = newWalletAddress()
    const live = await createSession('wallet', subject)
    const ended = await createSession('wallet', subject, now() - 1)
    const token = (sessionId: string) =>
      signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'access' })

    const answered = await call(whoAmIReadingSession, `Bearer ${await token(live)}`)
    const refused = await call(whoAmIReadingSession, `Bearer ${await token(ended)}`)

    expect(answered.status).toBe(200)
    expect(answered.body.result).toMatchObject({ subject, sessionId: live })
    expectUnauthorized(refused, 401003)
  })

  it('answers 401003 before its own refusal when the session ended, and the refusal otherwise', async () => {
    const subject = newWalletAddress()
    const live = await createSession('wallet', subject)
    const ended = await createSession('wallet', subject, now() - 1)
    const send = async (sessionId: string, fail: string) =>
      invoke(
        failingBeforeItsRead,
        httpEvent({
          routeKey: 'GET /api/v1/test/whoami',
          headers: {
            authorization: `Bearer ${await signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'access' })}`,
            'x-fail': fail,
          },
        }),
      )
    const reads = spyOnDbSend()

    const refusedInput = await send(live, 'input')
    const endedFirst = await send(ended, 'input')
    const readsBefore = reads.mock.calls.length
    // An outage is answered as it is: reading the session would only wait on it again.
    const outage = await send(ended, 'outage')

    expect(refusedInput.status).toBe(400)
    expectUnauthorized(endedFirst, UNAUTHORIZED.sessionEnded)
    expect(outage.status).toBe(503)
    expect(reads.mock.calls.length).toBe(readsBefore)
  })

  it('answers 500 rather than its result when it never admitted the session', async () => {
    const subject = newWalletAddress()
    const sessionId = await createSession('wallet', subject)
    const token = await signToken({ audience: 'wallet', subject, sessionId, tokenUse: 'access' })

    const response = await call(whoAmIForgettingSession, `Bearer ${token}`)

    expect(response.status).toBe(500)
    expect(response.body.result).toBeUndefined()
  })
})
