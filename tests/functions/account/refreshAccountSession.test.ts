import '../../support/env'
import { decodeJwt } from 'jose'
import { randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/account/refreshAccountSession'
import { REPLAY_GRACE_SECONDS, type SessionTokens, startSession } from '../../../lib/auth/sessions'
import { UNAUTHORIZED } from '../../../lib/errors'
import { type EnvelopeResponse, httpEvent, invoke } from '../../support/httpEvent'
import { backdateRotation } from '../../support/sessionClock'

function refresh(token?: string): Promise<EnvelopeResponse> {
  return invoke(
    handler,
    httpEvent({
      route: 'refreshAccountSession',
      ...(token !== undefined && { headers: { authorization: `Bearer ${token}` } }),
    }),
  )
}

function tokensOf(response: EnvelopeResponse): SessionTokens {
  return (response.body.result as { token: SessionTokens }).token
}

function expectUnauthorized(response: EnvelopeResponse, code: number) {
  expect(response).toEqual({
    status: 401,
    body: { ok: false, error: { code, message: expect.any(String) } },
  })
}

// Sessions are started directly: login's scrypt work adds nothing to what these tests check.
const accountSession = () => startSession({ audience: 'account', subject: randomUUID() })

describe('GET /v1/account/refresh', () => {
  it('answers new tokens of a new session of the same account', async () => {
    const accountId = randomUUID()
    const tokens = await startSession({ audience: 'account', subject: accountId })

    const response = await refresh(tokens.refresh)

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: { token: { access: expect.any(String), refresh: expect.any(String) } },
      },
    })
    const next = tokensOf(response)
    expect(decodeJwt(next.access)).toMatchObject({ aud: 'account', sub: accountId, typ: 'access' })
    expect(decodeJwt(next.refresh)).toMatchObject({
      aud: 'account',
      sub: accountId,
      typ: 'refresh',
    })
    expect(decodeJwt(next.refresh).sid).not.toBe(decodeJwt(tokens.refresh).sid)
    expect((await refresh(next.refresh)).status).toBe(200)
  })

  it('answers 401003 to a retry within 10 s of the rotation, and the new tokens keep working', async () => {
    const tokens = await accountSession()
    const next = tokensOf(await refresh(tokens.refresh))

    const retry = await refresh(tokens.refresh)

    expectUnauthorized(retry, UNAUTHORIZED.sessionEnded)
    expect((await refresh(next.refresh)).status).toBe(200)
  })

  it('revokes the token family on a replay after the grace period', async () => {
    const tokens = await accountSession()
    const next = tokensOf(await refresh(tokens.refresh))
    await backdateRotation(tokens.refresh, REPLAY_GRACE_SECONDS + 1)

    const replay = await refresh(tokens.refresh)

    expectUnauthorized(replay, UNAUTHORIZED.sessionEnded)
    expectUnauthorized(await refresh(next.refresh), UNAUTHORIZED.sessionEnded)
  })

  it('lets exactly one of 5 concurrent refreshes with one token succeed', async () => {
    const tokens = await accountSession()

    const responses = await Promise.all(Array.from({ length: 5 }, () => refresh(tokens.refresh)))

    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 401)).toHaveLength(4)
  })

  it('answers 401002 for an access token', async () => {
    const tokens = await accountSession()

    expectUnauthorized(await refresh(tokens.access), UNAUTHORIZED.invalidToken)
  })

  it('answers 401002 for a wallet refresh token', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address
    const tokens = await startSession({ audience: 'wallet', subject: address })

    expectUnauthorized(await refresh(tokens.refresh), UNAUTHORIZED.invalidToken)
  })

  it('answers 401001 without a bearer token', async () => {
    expectUnauthorized(await refresh(), UNAUTHORIZED.missingToken)
  })
})
