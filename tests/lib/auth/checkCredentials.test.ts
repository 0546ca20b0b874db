import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { registerAccount } from '../../../functions/account/registerAccount'
import {
  CREDENTIAL_WINDOW_SECONDS,
  MAX_CREDENTIAL_CHECKS,
  MAX_UNKNOWN_DEVICE_CHECKS,
} from '../../../lib/auth/attemptBudget'
import { type Credentials, checkCredentials } from '../../../lib/auth/checkCredentials'
import { issueDeviceToken } from '../../../lib/auth/deviceToken'
import { startSession } from '../../../lib/auth/sessions'
import * as password from '../../../lib/auth/password'
import { windowOf } from '../../../lib/db/windowCounter'
import { TooManyRequests, UNAUTHORIZED, Unauthorized } from '../../../lib/errors'
import { uniqueClient } from '../../support/uniqueClient'

// Counts the scrypt checks that run, without changing what they do.
vi.mock('../../../lib/auth/password', async (importOriginal) => {
  const original = await importOriginal<typeof password>()
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) }
})

// The present window, read once: read at each call, a test running across a quarter hour
// would put its moments in two windows (a run at 17:30 failed so).
const PRESENT_WINDOW_STARTS_AT = windowOf(CREDENTIAL_WINDOW_SECONDS).startsAt

/** A moment `seconds` into a window of its own, far from the present one. */
function inWindow(windowIndex: number, seconds: number): Date {
  const startsAt = PRESENT_WINDOW_STARTS_AT
  return new Date((startsAt + windowIndex * CREDENTIAL_WINDOW_SECONDS + seconds) * 1000)
}

async function registered() {
  const credentials = {
    username: `cred_${randomUUID().slice(0, 8)}`,
    password: `pw-${randomUUID()}`,
  }
  await registerAccount(credentials)
  return credentials
}

/** A login: the check, then the session, whose transaction gives the login's checks back. */
async function signIn(credentials: Credentials, client: string, now: Date) {
  const { account, checks } = await checkCredentials(credentials, client, now)
  await startSession({ audience: 'account', subject: account.accountId, releasing: checks })
}

/** A client's source address of its own: a test's budgets are never another test's. */
const newClient = uniqueClient

async function failTimes(username: string, times: number, now: Date, client: string) {
  for (let attempt = 0; attempt < times; attempt++) {
    await expect(
      checkCredentials({ username, password: 'wrong password' }, client, now),
    ).rejects.toThrow(Unauthorized)
  }
}

describe('checkCredentials', () => {
  it('answers the account of the right password', async () => {
    const { username, password } = await registered()

    const account = await checkCredentials({ username, password }, newClient())

    expect(account).toEqual({
      account: {
        accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        username,
        passwordHash: expect.stringMatching(/^scrypt\$17\$8\$1\$/),
        createdAt: expect.any(String),
      },
      // This client's check at the name and the name's from unknown devices, for the session's
      // transaction to give back.
      checks: [
        { pk: expect.stringMatching(/^ATTEMPTS#ACCOUNT#cred_\w+#CLIENT#/), sk: expect.any(String) },
        { pk: `ATTEMPTS#ACCOUNT#${username}`, sk: expect.any(String) },
      ],
    })
  })

  it('refuses a wrong password with 401004', async () => {
    const { username } = await registered()

    await expect(
      checkCredentials({ username, password: 'wrong password' }, newClient()),
    ).rejects.toMatchObject({
      status: 401,
      code: UNAUTHORIZED.credentialsRejected,
    })
  })

  it('delays a client for the rest of the window after its 5 failures, then checks it again', async () => {
    const { username, password } = await registered()
    const client = newClient()
    await failTimes(username, MAX_CREDENTIAL_CHECKS, inWindow(2, 10), client)

    await expect(
      checkCredentials({ username, password }, client, inWindow(2, 890)),
    ).rejects.toMatchObject({ status: 429, retryAfterSeconds: 10 })
    await expect(
      checkCredentials({ username, password }, client, inWindow(3, 1)),
    ).resolves.toMatchObject({ account: { username } })
  })

  it("lets the owner in from its own client while a stranger's 5 failures delay only the stranger (DECISIONS §9.4)", async () => {
    const owner = await registered()
    const stranger = newClient()
    await failTimes(owner.username, MAX_CREDENTIAL_CHECKS, inWindow(6, 10), stranger)
    const verify = vi.mocked(password.verifyPassword)
    verify.mockClear()

    await expect(
      checkCredentials({ ...owner, password: 'sixth guess' }, stranger, inWindow(6, 20)),
    ).rejects.toThrow(TooManyRequests)
    expect(verify).not.toHaveBeenCalled()
    await expect(checkCredentials(owner, newClient(), inWindow(6, 20))).resolves.toMatchObject({
      account: { username: owner.username },
    })
  })

  it('does not count right passwords against the budget', async () => {
    const { username, password } = await registered()
    const client = newClient()
    await failTimes(username, MAX_CREDENTIAL_CHECKS - 1, inWindow(4, 5), client)

    for (let login = 0; login < 3; login++) {
      await signIn({ username, password }, client, inWindow(4, 6))
    }
    await failTimes(username, 1, inWindow(4, 7), client)
    await expect(checkCredentials({ username, password }, client, inWindow(4, 8))).rejects.toThrow(
      TooManyRequests,
    )
  })

  it('says how long the delay lasts', async () => {
    const username = `cred_${randomUUID().slice(0, 8)}`
    const client = newClient()
    await failTimes(username, MAX_CREDENTIAL_CHECKS, inWindow(5, 0), client)

    await expect(
      checkCredentials({ username, password: 'any password' }, client, inWindow(5, 60)),
    ).rejects.toThrow('too many failed logins from this client; try again in 14 minutes')
  })

  it('lets at most 5 of 20 concurrent guesses from one client reach scrypt', async () => {
    const { username, password: right } = await registered()
    const client = newClient()
    const verify = vi.mocked(password.verifyPassword)
    verify.mockClear()
    const guesses = Array.from({ length: 20 }, (_, index) =>
      index === 13 ? right : `guess ${index}`,
    )

    const outcomes = await Promise.allSettled(
      guesses.map((guess) => checkCredentials({ username, password: guess }, client)),
    )

    expect(verify).toHaveBeenCalledTimes(MAX_CREDENTIAL_CHECKS)
    const refused = outcomes.filter(
      (outcome) => outcome.status === 'rejected' && outcome.reason instanceof TooManyRequests,
    )
    expect(refused).toHaveLength(20 - MAX_CREDENTIAL_CHECKS)
  })

  it('lets at most 10 of 30 concurrent guesses from 30 clients at one name reach scrypt; the rest answer 429 (DECISIONS §10.4)', async () => {
    const { username } = await registered()
    const verify = vi.mocked(password.verifyPassword)
    verify.mockClear()
    const now = inWindow(7, 10)

    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        checkCredentials({ username, password: `guess ${index}` }, newClient(), now),
      ),
    )

    expect(verify).toHaveBeenCalledTimes(MAX_UNKNOWN_DEVICE_CHECKS)
    const reasons = outcomes.map((outcome) =>
      outcome.status === 'rejected' ? (outcome.reason as Error).name : 'resolved',
    )
    expect(reasons.filter((name) => name === 'Unauthorized')).toHaveLength(10)
    expect(reasons.filter((name) => name === 'TooManyRequests')).toHaveLength(20)
  })

  it("gives a client's own check back when the name's refuses: refused 6 times at a spent name, it still has all 5 of its own with a device token", async () => {
    const owner = await registered()
    const client = newClient()
    const now = inWindow(8, 10)
    const device = await issueDeviceToken(owner.username, now)
    for (let guess = 0; guess < MAX_UNKNOWN_DEVICE_CHECKS; guess++) {
      await failTimes(owner.username, 1, now, newClient())
    }
    for (let refused = 0; refused < 6; refused++) {
      await expect(checkCredentials(owner, client, now)).rejects.toMatchObject({
        status: 429,
        message: expect.stringMatching(/^too many failed logins at this username/),
      })
    }

    const verify = vi.mocked(password.verifyPassword)
    verify.mockClear()
    for (let guess = 0; guess < MAX_CREDENTIAL_CHECKS - 1; guess++) {
      await expect(
        checkCredentials({ ...owner, password: 'typo', device }, client, now),
      ).rejects.toThrow(Unauthorized)
    }
    await expect(checkCredentials({ ...owner, device }, client, now)).resolves.toMatchObject({
      account: { username: owner.username },
    })
    expect(verify).toHaveBeenCalledTimes(MAX_CREDENTIAL_CHECKS)
  })
})
