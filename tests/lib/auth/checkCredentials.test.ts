import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { registerAccount } from '../../../functions/account/registerAccount'
import {
  checkCredentials,
  FAILED_LOGIN_WINDOW_SECONDS,
  MAX_FAILED_LOGINS,
} from '../../../lib/auth/checkCredentials'
import { TooManyRequests, UNAUTHORIZED, Unauthorized } from '../../../lib/errors'

const later = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000)

async function registered() {
  const credentials = {
    username: `cred_${randomUUID().slice(0, 8)}`,
    password: `pw-${randomUUID()}`,
  }
  await registerAccount(credentials)
  return credentials
}

async function failTimes(username: string, times: number, now: Date) {
  for (let attempt = 0; attempt < times; attempt++) {
    await expect(checkCredentials({ username, password: 'wrong password' }, now)).rejects.toThrow(
      Unauthorized,
    )
  }
}

describe('checkCredentials', () => {
  it('answers the account of the right password', async () => {
    const { username, password } = await registered()

    const account = await checkCredentials({ username, password })

    expect(account).toEqual({
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      username,
      passwordHash: expect.stringMatching(/^scrypt\$17\$8\$1\$/),
      createdAt: expect.any(String),
    })
  })

  it('refuses a wrong password with 401004', async () => {
    const { username } = await registered()

    await expect(checkCredentials({ username, password: 'wrong password' })).rejects.toMatchObject({
      status: 401,
      code: UNAUTHORIZED.credentialsRejected,
    })
  })

  it('locks for the rest of the window opened by the first failure, then lets the owner in', async () => {
    const { username, password } = await registered()
    const start = new Date()
    await failTimes(username, 1, start)
    await failTimes(username, MAX_FAILED_LOGINS - 1, later(start, 600))

    const beforeEnd = later(start, FAILED_LOGIN_WINDOW_SECONDS - 5)
    const afterEnd = later(start, FAILED_LOGIN_WINDOW_SECONDS + 1)

    await expect(checkCredentials({ username, password }, beforeEnd)).rejects.toThrow(
      TooManyRequests,
    )
    await expect(checkCredentials({ username, password }, afterEnd)).resolves.toMatchObject({
      username,
    })
  })

  it('does not lock after 4 failures', async () => {
    const { username, password } = await registered()
    await failTimes(username, MAX_FAILED_LOGINS - 1, new Date())

    await expect(checkCredentials({ username, password })).resolves.toMatchObject({ username })
  })

  it('says how long the lock lasts', async () => {
    const username = `cred_${randomUUID().slice(0, 8)}`
    const start = new Date()
    await failTimes(username, MAX_FAILED_LOGINS, start)

    await expect(
      checkCredentials({ username, password: 'any password' }, later(start, 60)),
    ).rejects.toThrow('too many failed logins; try again in 14 minutes')
  })
})
