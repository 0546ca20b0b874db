import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  type Account,
  createAccount,
  getLoginRecord,
  recordLoginFailure,
} from '../../../lib/db/account'

const WINDOW = 900

function createMockAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: randomUUID(),
    username: `Repo_${randomUUID().slice(0, 8)}`,
    passwordHash: 'scrypt$17$8$1$c2FsdA==$a2V5',
    createdAt: new Date().toISOString(),
    ...overrides,
  }
}

const later = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000)
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000)

describe('createAccount', () => {
  it('stores an account that getLoginRecord finds in any casing', async () => {
    const account = createMockAccount()

    expect(await createAccount(account)).toBe(true)

    expect(await getLoginRecord(account.username.toUpperCase())).toEqual({ account })
  })

  it('answers false for a username taken in another casing, keeping the first account', async () => {
    const first = createMockAccount()
    const second = createMockAccount({ username: first.username.toLowerCase() })

    expect(await createAccount(first)).toBe(true)
    expect(await createAccount(second)).toBe(false)

    expect((await getLoginRecord(first.username)).account).toEqual(first)
  })
})

describe('recordLoginFailure', () => {
  it('counts concurrent failures exactly, in a window that ends windowSeconds after the first', async () => {
    const username = `repo_${randomUUID().slice(0, 8)}`
    const now = new Date()

    await Promise.all(
      Array.from({ length: 10 }, () =>
        recordLoginFailure(username, { windowSeconds: WINDOW, now }),
      ),
    )

    expect(await getLoginRecord(username, now)).toEqual({
      failures: { count: 10, windowEndsAt: epochSeconds(now) + WINDOW },
    })
  })

  it('keeps the end of the window when later failures arrive', async () => {
    const username = `repo_${randomUUID().slice(0, 8)}`
    const start = new Date()

    await recordLoginFailure(username, { windowSeconds: WINDOW, now: start })
    await recordLoginFailure(username, { windowSeconds: WINDOW, now: later(start, 300) })

    expect((await getLoginRecord(username, later(start, 300))).failures).toEqual({
      count: 2,
      windowEndsAt: epochSeconds(start) + WINDOW,
    })
  })

  it('ignores a past window that TTL has not removed yet, and starts a new one', async () => {
    const username = `repo_${randomUUID().slice(0, 8)}`
    const start = new Date()
    await recordLoginFailure(username, { windowSeconds: WINDOW, now: start })
    const afterWindow = later(start, WINDOW + 60)

    expect(await getLoginRecord(username, afterWindow)).toEqual({})

    await Promise.all(
      Array.from({ length: 5 }, () =>
        recordLoginFailure(username, { windowSeconds: WINDOW, now: afterWindow }),
      ),
    )

    expect((await getLoginRecord(username, afterWindow)).failures).toEqual({
      count: 5,
      windowEndsAt: epochSeconds(afterWindow) + WINDOW,
    })
  })
})
