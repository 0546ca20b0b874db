import '../../support/env'
import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { handler } from '../../../functions/account/loginAccount'
import { registerAccount } from '../../../functions/account/registerAccount'
import { CREDENTIAL_WINDOW_SECONDS } from '../../../lib/auth/attemptBudget'
import * as password from '../../../lib/auth/password'
import { httpEvent, lambdaContext } from '../../support/httpEvent'
import { uniqueClient } from '../../support/uniqueClient'
import { clearOfWindowEnd } from '../../support/windowEdge'

// Issue 39, row 2 (DECISIONS §10.4): beyond each client's own budget, a username gets at most 10
// password checks per 15 minutes from clients without a device token for it; every login answers
// `device`, and a login carrying a valid one for the name is held by its own client's budget only.
// The checks are counted where scrypt runs (verifyPassword), not by timing.

vi.mock('../../../lib/auth/password', async (importOriginal) => {
  const original = await importOriginal<typeof password>()
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) }
})

interface LoginAnswer {
  status: number
  retryAfter?: string
  body: {
    ok: boolean
    result?: { token: { access: string; refresh: string }; device: string }
    error?: { code: number; message: string }
  }
}

async function login(body: unknown, sourceIp: string): Promise<LoginAnswer> {
  const response = (await handler(
    httpEvent({ route: 'loginAccount', body, sourceIp }),
    lambdaContext(),
  )) as { statusCode: number; headers?: Record<string, string>; body: string }
  return {
    status: response.statusCode,
    retryAfter: response.headers?.['retry-after'],
    body: JSON.parse(response.body) as LoginAnswer['body'],
  }
}

async function registered() {
  const credentials = { username: `guess_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await registerAccount(credentials)
  return credentials
}

/** A 429 with a Retry-After within the 15-minute window, as the envelope says. */
function expectDelayed(answer: LoginAnswer) {
  expect(answer).toMatchObject({ status: 429, body: { ok: false, error: { code: 429 } } })
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1)
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(CREDENTIAL_WINDOW_SECONDS)
}

// Up to 14 scrypt hashes a test (about 0.7 s each, seconds on a busy machine).
describe(
  'password guesses from many clients (issue 39 row 2, DECISIONS §10.4)',
  { timeout: 240_000 },
  () => {
    // Every login of a test in one 15-minute window, however slow the machine.
    beforeEach(() => clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 120))

    it('lets 10 of 12 wrong passwords from 12 clients reach scrypt, refuses the rest and a new device 429 with Retry-After, and lets the owner in with the device token of an earlier login', async () => {
      const owner = await registered()
      const earlier = await login(owner, uniqueClient())
      expect(earlier.status).toBe(200)
      const verify = vi.mocked(password.verifyPassword)
      verify.mockClear()

      const guesses: LoginAnswer[] = []
      for (let client = 0; client < 12; client++) {
        guesses.push(await login({ ...owner, password: `guess ${client}` }, uniqueClient()))
      }
      const checked = verify.mock.calls.length
      const newDevice = await login(owner, uniqueClient())
      const knownDevice = await login(
        { ...owner, device: earlier.body.result?.device },
        uniqueClient(),
      )

      expect(checked).toBe(10)
      expect(guesses.slice(0, 10).map((guess) => guess.body.error?.code)).toEqual(
        Array.from({ length: 10 }, () => 401004),
      )
      for (const refused of guesses.slice(10)) expectDelayed(refused)
      expectDelayed(newDevice)
      expect(knownDevice).toMatchObject({
        status: 200,
        body: { ok: true, result: { token: expect.any(Object), device: expect.any(String) } },
      })
    })

    it('treats a forged, tampered, expired-looking or other name’s device token as none: 429 at a spent name, never 401 or 500', async () => {
      const owner = await registered()
      const other = await registered()
      const { device: ownDevice = '' } = (await login(owner, uniqueClient())).body.result ?? {}
      const { device: otherDevice = '' } = (await login(other, uniqueClient())).body.result ?? {}
      for (let client = 0; client < 10; client++) {
        await login({ ...owner, password: `guess ${client}` }, uniqueClient())
      }
      const [, expiresAt = '', id = '', mac = ''] = ownDevice.split('.')
      const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`
      const forged = [
        'not a device token',
        '',
        otherDevice,
        `d1.${expiresAt}.${id}.${flipped}`,
        `d1.${Number(expiresAt) + 86_400}.${id}.${mac}`,
        `d1.1.${id}.${mac}`,
        `d1.${expiresAt}.${id}.${mac}.${mac}`,
        ownDevice.toUpperCase(),
      ]

      for (const device of forged) expectDelayed(await login({ ...owner, device }, uniqueClient()))
      expect((await login({ ...owner, device: ownDevice }, uniqueClient())).status).toBe(200)
    })

    it('answers 400 for a device token that is not a string or over 256 characters', async () => {
      const owner = await registered()

      for (const device of [42, null, 'x'.repeat(257)]) {
        const answer = await login({ ...owner, device }, uniqueClient())
        expect(answer).toMatchObject({
          status: 400,
          body: { ok: false, error: { code: 400, details: [{ path: 'body.device' }] } },
        })
      }
    })
  },
)
