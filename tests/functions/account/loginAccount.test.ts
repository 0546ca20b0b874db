import '../../support/env'
import { decodeJwt } from 'jose'
import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { handler } from '../../../functions/account/loginAccount'
import { handler as logoutHandler } from '../../../functions/account/logoutAccount'
import { handler as refreshHandler } from '../../../functions/account/refreshAccountSession'
import { registerAccount } from '../../../functions/account/registerAccount'
import { CREDENTIAL_WINDOW_SECONDS, MAX_CREDENTIAL_CHECKS } from '../../../lib/auth/attemptBudget'
import { loadAuthConfig } from '../../../lib/config/authConfig'
import { getAccount } from '../../../lib/db/account'
import { UNAUTHORIZED } from '../../../lib/errors'
import { type EnvelopeResponse, httpEvent, invoke, lambdaContext } from '../../support/httpEvent'
import { spyOnDbSend } from '../../support/dbSendSpy'
import { clearOfWindowEnd } from '../../support/windowEdge'
import { uniqueClient } from '../../support/uniqueClient'

const ROUTE = 'POST /api/v1/account/login'

function newUsername(prefix = 'login'): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`
}

function login(body: unknown, sourceIp?: string): Promise<EnvelopeResponse> {
  return invoke(handler, httpEvent({ routeKey: ROUTE, body, sourceIp }))
}

/** A client's source address of its own: a test's budgets are never another test's. */
const newClient = uniqueClient

async function registered(prefix?: string) {
  const credentials = { username: newUsername(prefix), password: `pw-${randomUUID()}` }
  await registerAccount(credentials)
  const account = await getAccount(credentials.username)
  if (!account) throw new Error('the account was not stored')
  return { ...credentials, accountId: account.accountId }
}

const REJECTED = {
  status: 401,
  body: {
    ok: false,
    error: { code: UNAUTHORIZED.credentialsRejected, message: 'username or password is wrong' },
  },
}

const DELAYED = {
  status: 429,
  body: {
    ok: false,
    error: {
      code: 429,
      message: expect.stringMatching(/^too many failed logins from this client/),
    },
  },
}

describe('POST /v1/account/login', () => {
  it('answers an access and a refresh token of a new account session, and a device token', async () => {
    const { username, password, accountId } = await registered()

    const response = await login({ username, password })

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          token: { access: expect.any(String), refresh: expect.any(String) },
          // Opaque to the client: its shape is lib/auth/deviceToken.ts's, checked there.
          device: expect.stringMatching(/^d1\.\d+\.[\w-]{22}\.[\w-]{43}$/),
        },
      },
    })
    const { token } = response.body.result as { token: { access: string; refresh: string } }
    const access = decodeJwt(token.access)
    const refresh = decodeJwt(token.refresh)
    const { issuer, accessTokenTtlSeconds, refreshTokenTtlSeconds } = loadAuthConfig()
    expect(access).toEqual({
      iss: issuer,
      aud: 'account',
      sub: accountId,
      sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      typ: 'access',
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: Number(access.iat) + accessTokenTtlSeconds,
    })
    expect(refresh).toMatchObject({
      aud: 'account',
      sub: accountId,
      sid: access.sid,
      typ: 'refresh',
    })
    expect(Number(refresh.exp) - Number(refresh.iat)).toBe(refreshTokenTtlSeconds)
  })

  it('hands out tokens that refresh and log out on the account routes', async () => {
    const { username, password } = await registered()
    const { token } = (await login({ username, password })).body.result as {
      token: { access: string; refresh: string }
    }
    const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` })

    const refreshed = await invoke(
      refreshHandler,
      httpEvent({ route: 'refreshAccountSession', headers: bearer(token.refresh) }),
    )
    const { token: next } = refreshed.body.result as { token: { access: string } }
    const loggedOut = await invoke(
      logoutHandler,
      httpEvent({ route: 'logoutAccount', headers: bearer(next.access) }),
    )

    expect(refreshed.status).toBe(200)
    expect(loggedOut).toEqual({ status: 200, body: { ok: true, result: {} } })
  })

  it('finds the account whatever the casing of the username', async () => {
    const { username, password, accountId } = await registered('Bob')

    const response = await login({ username: username.toUpperCase(), password })

    expect(response.status).toBe(200)
    const { token } = response.body.result as { token: { access: string } }
    expect(decodeJwt(token.access).sub).toBe(accountId)
  })

  it('answers 401004 with one message for a wrong password and an unknown username', async () => {
    const { username } = await registered()

    const wrongPassword = await login({ username, password: 'not the password' })
    const unknownUser = await login({ username: newUsername(), password: 'not the password' })

    expect(wrongPassword).toEqual(REJECTED)
    expect(unknownUser).toEqual(REJECTED)
  })

  it('costs four calls on failure, one more write on success, and one less with a device token', async () => {
    const { username, password } = await registered()
    const send = spyOnDbSend()

    const first = await login({ username, password })
    const success = send.mock.calls.length
    send.mockClear()
    const { device } = first.body.result as { device: string }
    await login({ username, password, device })
    const knownDevice = send.mock.calls.length
    send.mockClear()
    await login({ username, password: 'not the password' })
    const failure = send.mock.calls.length
    send.mockClear()
    await login({ username: newUsername(), password: 'not the password' })
    const unknown = send.mock.calls.length

    // Client limit, the client's and (without a device token) the name's check reservations
    // (DECISIONS §10.4) and the account read; on success the session transaction, which gives
    // the checks back.
    expect({ success, knownDevice, failure, unknown }).toEqual({
      success: 5,
      knownDevice: 4,
      failure: 4,
      unknown: 4,
    })
  })

  describe('failed logins delay the client that made them (DECISIONS §9.4)', () => {
    // Six scrypt logins take seconds, more on a loaded machine: never across a quarter hour.
    beforeEach(() => clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 60))

    it('answers 429 with Retry-After to a client after its 5 failed logins, even with the right password', async () => {
      const { username, password } = await registered()
      const client = newClient()
      for (let attempt = 0; attempt < MAX_CREDENTIAL_CHECKS; attempt++) {
        expect(await login({ username, password: 'not the password' }, client)).toEqual(REJECTED)
      }

      const raw = (await handler(
        httpEvent({ routeKey: ROUTE, body: { username, password }, sourceIp: client }),
        lambdaContext(),
      )) as { statusCode: number; headers: Record<string, string>; body: string }

      expect({ status: raw.statusCode, body: JSON.parse(raw.body) }).toEqual(DELAYED)
      const retryAfter = Number(raw.headers['retry-after'])
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(CREDENTIAL_WINDOW_SECONDS)
    })

    it("signs the owner in from its own client after a stranger's 5 failed logins at its name", async () => {
      const { username, password } = await registered()
      const stranger = newClient()
      for (let attempt = 0; attempt < MAX_CREDENTIAL_CHECKS; attempt++) {
        expect(await login({ username, password: 'a guess' }, stranger)).toEqual(REJECTED)
      }
      expect(await login({ username, password: 'one more guess' }, stranger)).toEqual(DELAYED)

      const owner = await login({ username, password }, newClient())

      expect(owner.status).toBe(200)
    })

    it('delays a client at an unknown username too, in any casing', async () => {
      const username = newUsername('Ghost')
      const client = newClient()
      for (let attempt = 0; attempt < MAX_CREDENTIAL_CHECKS; attempt++) {
        expect(await login({ username, password: 'guess number one' }, client)).toEqual(REJECTED)
      }

      const response = await login(
        { username: username.toLowerCase(), password: 'another guess' },
        client,
      )

      expect(response).toEqual(DELAYED)
    })
  })

  describe('answers 400 for a body that breaks the rules', () => {
    it.each([
      ['a missing password', { username: newUsername() }, ['body.password']],
      ['an empty password', { username: newUsername(), password: '' }, ['body.password']],
      [
        'a 129-character password',
        { username: newUsername(), password: 'x'.repeat(129) },
        ['body.password'],
      ],
      ['a username with unicode', { username: 'bøb', password: 'long enough' }, ['body.username']],
      [
        'an extra field',
        { username: newUsername(), password: 'long enough', remember: true },
        ['body'],
      ],
    ])('%s', async (_case, body, paths) => {
      const response = await login(body)

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: 'the request is not valid',
            details: paths.map((path) => ({ path, message: expect.any(String) })),
          },
        },
      })
    })

    it('answers 400 for malformed JSON', async () => {
      const response = await invoke(handler, httpEvent({ routeKey: ROUTE, rawBody: '{"password' }))

      expect(response).toEqual({
        status: 400,
        body: { ok: false, error: { code: 400, message: 'the body is not valid JSON' } },
      })
    })
  })
})
