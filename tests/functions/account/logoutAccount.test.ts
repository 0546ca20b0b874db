import '../../support/env'
import { randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/account/logoutAccount'
import { handler as refreshHandler } from '../../../functions/account/refreshAccountSession'
import { startSession } from '../../../lib/auth/sessions'
import { UNAUTHORIZED } from '../../../lib/errors'
import { type EnvelopeResponse, httpEvent, invoke } from '../../support/httpEvent'

function logout(token?: string): Promise<EnvelopeResponse> {
  return invoke(
    handler,
    httpEvent({
      route: 'logoutAccount',
      ...(token !== undefined && { headers: { authorization: `Bearer ${token}` } }),
    }),
  )
}

function refresh(token: string): Promise<EnvelopeResponse> {
  return invoke(
    refreshHandler,
    httpEvent({
      route: 'refreshAccountSession',
      headers: { authorization: `Bearer ${token}` },
    }),
  )
}

function expectUnauthorized(response: EnvelopeResponse, code: number) {
  expect(response).toEqual({
    status: 401,
    body: { ok: false, error: { code, message: expect.any(String) } },
  })
}

describe('DELETE /v1/account/logout', () => {
  it('answers {} and ends the session: its access and refresh tokens answer 401003', async () => {
    const tokens = await startSession({ audience: 'account', subject: randomUUID() })

    const response = await logout(tokens.access)

    expect(response).toEqual({ status: 200, body: { ok: true, result: {} } })
    expectUnauthorized(await logout(tokens.access), UNAUTHORIZED.sessionEnded)
    expectUnauthorized(await refresh(tokens.refresh), UNAUTHORIZED.sessionEnded)
  })

  it('leaves the other sessions of the account working', async () => {
    const accountId = randomUUID()
    const laptop = await startSession({ audience: 'account', subject: accountId })
    const phone = await startSession({ audience: 'account', subject: accountId })

    await logout(laptop.access)

    expect((await refresh(phone.refresh)).status).toBe(200)
  })

  it('answers 401002 for a wallet access token', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address
    const tokens = await startSession({ audience: 'wallet', subject: address })

    expectUnauthorized(await logout(tokens.access), UNAUTHORIZED.invalidToken)
  })

  it('answers 401002 for a refresh token', async () => {
    const tokens = await startSession({ audience: 'account', subject: randomUUID() })

    expectUnauthorized(await logout(tokens.refresh), UNAUTHORIZED.invalidToken)
  })

  it('answers 401001 without a bearer token', async () => {
    expectUnauthorized(await logout(), UNAUTHORIZED.missingToken)
  })
})
