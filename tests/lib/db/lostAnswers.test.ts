import '../../support/env'
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { registerAccount } from '../../../functions/account/registerAccount'
import { createAccount, getAccount } from '../../../lib/db/account'
import { db } from '../../../lib/db/client'
import { claimIdempotencyKey } from '../../../lib/db/idempotency'
import { Conflict } from '../../../lib/errors'

// A conditional write whose answer is lost: the table applied it, but the SDK's request timeout
// (DYNAMODB_REQUEST_TIMEOUT_MS, 1 s) passed first, so the SDK sends it again and the second
// attempt meets the item the first one wrote. A CI run on a loaded machine answered a journey's
// first registration 409 "this username is already registered" this way. DynamoDB Local cannot
// lose an answer on demand, so a middleware inside the SDK's retry loop lets the first attempt of
// the named command reach the table, then throws the SDK's TimeoutError in place of its answer.

const LOST = 'loseFirstAnswer'

function loseFirstAnswerOf(commandName: string) {
  let lost = 0
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args)
      if (context.commandName !== commandName || lost > 0) return result
      lost += 1
      throw Object.assign(new Error('socket timed out (test stand-in)'), { name: 'TimeoutError' })
    },
    { step: 'deserialize', name: LOST },
  )
  return { lostAnswers: () => lost }
}

afterEach(() => {
  db().middlewareStack.remove(LOST)
})

const credentials = () => ({ username: `lost_${randomUUID().slice(0, 8)}`, password: randomUUID() })

describe('a conditional write whose first answer is lost, sent again by the SDK', () => {
  it('registers the account: the retry meets its own first attempt, not another registration', async () => {
    const { lostAnswers } = loseFirstAnswerOf('PutItemCommand')
    const body = credentials()

    await expect(registerAccount(body)).resolves.toEqual({})

    expect(lostAnswers()).toBe(1)
    expect((await getAccount(body.username))?.username).toBe(body.username)
    // Another registration of the name is still refused.
    await expect(registerAccount(body)).rejects.toBeInstanceOf(Conflict)
  })

  it('still answers false to another account of the name: the item met is not its own', async () => {
    const { username } = credentials()
    const first = { accountId: randomUUID(), username, passwordHash: 'h1', createdAt: 'now' }
    await createAccount(first)
    loseFirstAnswerOf('PutItemCommand')

    // The first attempt fails its condition; no answer was lost, since it never got one to lose.
    expect(await createAccount({ ...first, accountId: randomUUID(), passwordHash: 'h2' })).toBe(
      false,
    )
    expect((await getAccount(username))?.passwordHash).toBe('h1')
  })

  it('claims an Idempotency-Key for the request that sent it, not as another request in progress', async () => {
    const { lostAnswers } = loseFirstAnswerOf('PutItemCommand')
    const scope = {
      wallet: `0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}`,
      key: randomUUID(),
    }

    const claimed = await claimIdempotencyKey({ ...scope, fingerprint: 'f1' })

    expect(lostAnswers()).toBe(1)
    expect(claimed).toBeUndefined()
    // A second request with the key finds it held.
    expect(await claimIdempotencyKey({ ...scope, fingerprint: 'f1' })).toEqual({
      status: 'in_progress',
      fingerprint: 'f1',
    })
  })
})
