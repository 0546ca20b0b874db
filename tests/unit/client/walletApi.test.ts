import { describe, expect, it } from 'vitest'
import { createWalletApi } from '../../../client/walletApi'

// What the local stack cannot answer on demand: the gateway's stage throttle (a 429 that clears),
// and several requests finding one expired token at once. A stand-in server answers in their
// place; tests/e2e/walletApiClient.test.ts drives the client through the real stack.

interface Seen {
  route: string
  authorization: string | null
  idempotencyKey: string | null
  body: string
}

type Answer = (request: Request, seen: Seen[]) => Response | undefined

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })

/** A server of scripted answers (the first that answers wins), recording every request. */
function standIn(...answers: Answer[]) {
  const seen: Seen[] = []
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({
      route: `${request.method} ${new URL(request.url).pathname}`,
      authorization: request.headers.get('Authorization'),
      idempotencyKey: request.headers.get('Idempotency-Key'),
      body: await request.clone().text(),
    })
    for (const answer of answers) {
      const response = answer(request, seen)
      if (response) return response
    }
    return json(500, { ok: false, error: { code: 500, message: 'unscripted', requestId: 'x' } })
  }
  return { seen, fetch: fetch as typeof globalThis.fetch }
}

const TOKENS = { access: 'a.b.c', refresh: 'r.e.f' }
const RENEWED = { access: 'a2.b.c', refresh: 'r2.e.f' }
const TRANSFER = { to: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', amount: '1.5' }

describe('the client an app copies', () => {
  it('retries a throttled transfer after Retry-After with the same Idempotency-Key and body', async () => {
    const waits: number[] = []
    const { seen, fetch } = standIn((_request, seen) =>
      seen.length === 1
        ? json(429, { message: 'Too Many Requests' }, { 'Retry-After': '2' })
        : json(200, { ok: true, result: { transactions: [] } }),
    )
    const client = createWalletApi({
      baseUrl: 'https://api.example',
      fetch,
      wait: (milliseconds) => {
        waits.push(milliseconds)
        return Promise.resolve()
      },
    })
    client.resume('wallet', TOKENS)

    const answer = await client.api.POST('/api/v1/transfer/tokens/ethereum/{key}', {
      params: { path: { key: `0x${'1'.repeat(64)}` } },
      body: TRANSFER,
    })

    expect(answer.response.status).toBe(200)
    expect(waits).toEqual([2000])
    expect(seen).toHaveLength(2)
    expect(seen[1]).toEqual(seen[0])
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(seen[0]?.authorization).toBe(`Bearer ${TOKENS.access}`)
  })

  it('gives up on a 429 whose wait is longer than it accepts, and after its retries', async () => {
    const waits: number[] = []
    const { seen, fetch } = standIn((request) =>
      new URL(request.url).pathname === '/api/v1/networks'
        ? json(429, { message: 'Too Many Requests' })
        : json(
            429,
            { ok: false, error: { code: 429, message: 'locked' } },
            { 'Retry-After': '900' },
          ),
    )
    const client = createWalletApi({
      baseUrl: 'https://api.example',
      fetch,
      wait: (milliseconds) => {
        waits.push(milliseconds)
        return Promise.resolve()
      },
    })

    const locked = await client.signInWithAccount('satoshi_n', 'wrong password')
    const throttled = await client.api.GET('/api/v1/networks')

    expect(locked.response.status).toBe(429)
    expect(throttled.response.status).toBe(429)
    // No Retry-After from the gateway: one second, twice (the default retries).
    expect(waits).toEqual([1000, 1000])
    expect(seen.map(({ route }) => route)).toEqual([
      'POST /api/v1/account/login',
      'GET /api/v1/networks',
      'GET /api/v1/networks',
      'GET /api/v1/networks',
    ])
  })

  it('refreshes once for requests that found the token expired together', async () => {
    const expired = (request: Request) =>
      request.headers.get('Authorization') === `Bearer ${TOKENS.access}`
        ? json(401, { ok: false, error: { code: 401002, message: 'expired' } })
        : undefined
    const refresh = (request: Request) =>
      new URL(request.url).pathname === '/api/v1/auth/refresh'
        ? json(200, { ok: true, result: RENEWED })
        : undefined
    const { seen, fetch } = standIn(refresh, expired, () =>
      json(200, { ok: true, result: { count: 0, trades: [] } }),
    )
    const sessions: unknown[] = []
    const client = createWalletApi({
      baseUrl: 'https://api.example',
      fetch,
      onSession: (session) => sessions.push(session),
    })
    client.resume('wallet', TOKENS)

    const answers = await Promise.all([
      client.api.GET('/api/v1/trades'),
      client.api.GET('/api/v1/trades'),
      client.api.GET('/api/v1/trades'),
    ])

    expect(answers.map(({ response }) => response.status)).toEqual([200, 200, 200])
    expect(seen.filter(({ route }) => route === 'GET /api/v1/auth/refresh')).toEqual([
      expect.objectContaining({ authorization: `Bearer ${TOKENS.refresh}` }),
    ])
    expect(
      seen.filter(({ authorization }) => authorization === `Bearer ${RENEWED.access}`),
    ).toHaveLength(3)
    expect(sessions).toEqual([TOKENS, RENEWED])
    expect(client.session).toEqual(RENEWED)
  })

  it('forgets the session when the refresh is refused, and answers the first 401', async () => {
    const { seen, fetch } = standIn((request) =>
      json(401, {
        ok: false,
        error: {
          code: new URL(request.url).pathname === '/api/v1/auth/refresh' ? 401003 : 401002,
          message: 'no',
        },
      }),
    )
    const client = createWalletApi({ baseUrl: 'https://api.example', fetch })
    client.resume('wallet', TOKENS)

    const answer = await client.api.GET('/api/v1/trades')

    expect(answer.response.status).toBe(401)
    expect(answer.error).toMatchObject({ error: { code: 401002 } })
    expect(seen.map(({ route }) => route)).toEqual([
      'GET /api/v1/trades',
      'GET /api/v1/auth/refresh',
    ])
    expect(client.session).toBeUndefined()
  })
})
