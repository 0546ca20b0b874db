import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { type Account, createAccount, getAccount } from '../../../lib/db/account'

function createMockAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: randomUUID(),
    username: `Repo_${randomUUID().slice(0, 8)}`,
    passwordHash: 'scrypt$17$8$1$c2FsdA==$a2V5',
    createdAt: new Date().toISOString(),
    ...overrides,
  }
}

describe('createAccount', () => {
  it('stores an account that getAccount finds in any casing', async () => {
    const account = createMockAccount()

    expect(await createAccount(account)).toBe(true)

    expect(await getAccount(account.username.toUpperCase())).toEqual(account)
  })

  it('answers false for a username taken in another casing, keeping the first account', async () => {
    const first = createMockAccount()
    await createAccount(first)

    expect(
      await createAccount({ ...createMockAccount(), username: first.username.toLowerCase() }),
    ).toBe(false)
    expect(await getAccount(first.username)).toEqual(first)
  })

  it('answers undefined for an unknown username', async () => {
    expect(await getAccount(`nobody_${randomUUID().slice(0, 8)}`)).toBeUndefined()
  })
})
