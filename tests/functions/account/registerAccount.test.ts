import '../../support/env'
import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { randomBytes, randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/account/registerAccount'
import { db, tableName } from '../../../lib/db/client'
import { usernamePartition } from '../../../lib/db/keys'
import { type EnvelopeResponse, httpEvent, invoke, lambdaContext } from '../../support/httpEvent'

const ROUTE = 'POST /api/v1/account/register'

function newUsername(prefix = 'reg'): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`
}

function register(body: unknown): Promise<EnvelopeResponse> {
  return invoke(handler, httpEvent({ routeKey: ROUTE, body }))
}

// Ten scrypt hashes share this machine's two cores for about 10 s, past the stub context's 10 s
// deadline (middy then answers a timeout); deployed, each registration runs in its own container.
function registerWithoutDeadline(body: unknown): Promise<EnvelopeResponse> {
  const context = { ...lambdaContext(), getRemainingTimeInMillis: () => 120_000 }
  return invoke((event) => handler(event, context), httpEvent({ routeKey: ROUTE, body }))
}

async function itemsOf(username: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': usernamePartition(username) },
      ConsistentRead: true,
    }),
  )
  return Items
}

function expectInvalid(response: EnvelopeResponse, paths: string[]) {
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
}

describe('POST /v1/account/register', () => {
  it('answers {} and stores the password only as an scrypt hash with its parameters', async () => {
    const username = newUsername()
    const password = `pw-${randomUUID()}`

    const response = await register({ username, password })

    expect(response).toEqual({ status: 200, body: { ok: true, result: {} } })
    const items = await itemsOf(username)
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({
      username,
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      passwordHash: expect.stringMatching(
        /^scrypt\$17\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/,
      ),
    })
    expect(JSON.stringify(items)).not.toContain(password)
  })

  it('answers 409 when the username is taken in another casing', async () => {
    const username = newUsername('Alice')
    await register({ username, password: 'first password' })

    const response = await register({
      username: username.toLowerCase(),
      password: 'other password',
    })

    expect(response).toEqual({
      status: 409,
      body: { ok: false, error: { code: 409, message: 'this username is already registered' } },
    })
    expect(await itemsOf(username)).toHaveLength(1)
  })

  it('lets exactly one of 10 concurrent registrations of a new username succeed', async () => {
    const username = newUsername('race')

    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        registerWithoutDeadline({ username, password: `password ${index}` }),
      ),
    )

    const statuses = responses.map((response) => response.status).sort()
    expect(statuses).toEqual([200, ...Array<number>(9).fill(409)])
    expect(await itemsOf(username)).toHaveLength(1)
  })

  describe('answers 400 for a body that breaks the rules', () => {
    it.each([
      ['a 2-character username', { username: 'ab', password: 'long enough' }, ['body.username']],
      [
        'a 33-character username',
        { username: 'a'.repeat(33), password: 'long enough' },
        ['body.username'],
      ],
      [
        'a username with a space',
        { username: 'al ice', password: 'long enough' },
        ['body.username'],
      ],
      [
        'a username with unicode',
        { username: 'alicé', password: 'long enough' },
        ['body.username'],
      ],
      [
        'a 7-character password',
        { username: newUsername(), password: 'x'.repeat(7) },
        ['body.password'],
      ],
      [
        'a 129-character password',
        { username: newUsername(), password: 'x'.repeat(129) },
        ['body.password'],
      ],
      ['a missing password', { username: newUsername() }, ['body.password']],
      ['a missing username', { password: 'long enough' }, ['body.username']],
      ['an empty object', {}, ['body.username', 'body.password']],
      ['a number as password', { username: newUsername(), password: 12345678 }, ['body.password']],
      [
        'an extra field',
        { username: newUsername(), password: 'long enough', admin: true },
        ['body'],
      ],
    ])('%s', async (_case, body, paths) => {
      const response = await register(body)

      expectInvalid(response, paths)
    })

    it('accepts the boundaries: 3 and 32 characters, passwords of 8 and 128', async () => {
      const short = randomBytes(3).toString('base64url').slice(0, 3)
      const long = `b${randomUUID().replaceAll('-', '').slice(0, 31)}`

      const responses = await Promise.all([
        register({ username: short, password: 'x'.repeat(8) }),
        register({ username: long, password: 'y'.repeat(128) }),
      ])

      expect(responses.map((response) => response.status)).toEqual([200, 200])
    })

    it('answers 400 for malformed JSON', async () => {
      const response = await invoke(
        handler,
        httpEvent({ routeKey: ROUTE, rawBody: '{"username":' }),
      )

      expect(response).toEqual({
        status: 400,
        body: { ok: false, error: { code: 400, message: 'the body is not valid JSON' } },
      })
    })

    it('never echoes the password in the error', async () => {
      const password = 'z'.repeat(129)

      const response = await register({ username: newUsername(), password })

      expect(JSON.stringify(response)).not.toContain(password)
    })
  })
})
