import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { decodeJwt, SignJWT } from 'jose'
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'
import ts from 'typescript'
import { type Hex, parseEther, zeroAddress } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { createWalletApi, type WalletApi } from '../../client/walletApi'
import { jwtSecret } from '../../lib/auth/jwtSecret'
import { OPENAPI_FILE } from '../../lib/openapi/openApiDocument'
import { deployment, devnet, fundedAccount } from '../support/devnetAccounts'
import { type PreparedTransaction, signAll } from '../support/signPrepared'

// The client an app copies (client/): generated types plus openapi-fetch middleware, driven
// through serverless offline as an app would use it: Sign-In with Ethereum, a quote, prepare,
// sign locally, submit, the trades; a refresh on an expired token; a 429 retried after its
// Retry-After; and an account's sign-in.

const TYPES_FILE = resolve('client/api.d.ts')

interface Sent {
  route: string
  status: number
  idempotencyKey: string | null
}

/** fetch that records what the client sent and what it got, in order. */
function recordingFetch() {
  const sent: Sent[] = []
  const recording = async (input: Request): Promise<Response> => {
    const response = await fetch(input)
    sent.push({
      route: `${input.method} ${new URL(input.url).pathname}`,
      status: response.status,
      idempotencyKey: input.headers.get('Idempotency-Key'),
    })
    return response
  }
  return { sent, fetch: recording as typeof fetch }
}

/** The result of a success the journey builds on; anything else stops it. */
function resultOf<Result>(
  step: string,
  answer: { data?: { ok: true; result: Result }; error?: unknown },
): Result {
  if (!answer.data) throw new Error(`${step}: ${JSON.stringify(answer.error)}`)
  return answer.data.result
}

/** What the compiler refuses with the generated types: never called. */
export async function refusedByTheTypes(client: WalletApi) {
  const query = { amount: '1', address0: zeroAddress, address1: zeroAddress, decimals1: 6 }
  await client.api.GET('/api/v1/swap/quote/ethereum', {
    // @ts-expect-error `decimals0` is an integer
    params: { query: { ...query, decimals0: '18' } },
  })
  const trade = await client.api.GET('/api/v1/trade/id/{tradeId}', {
    params: { path: { tradeId: randomUUID() } },
  })
  if (trade.error && 'ok' in trade.error) {
    // @ts-expect-error this route never answers 409: its error codes are an enum
    if (trade.error.error.code === 409) return
  }
  // @ts-expect-error an exact twin is a string
  const exact: number | undefined = trade.data?.result.amountExact
  return exact
}

/** An access token of `access`'s session that expired a minute ago, as the service signs them. */
async function expiredCopy(access: string): Promise<string> {
  const { iss, aud, sub, sid, typ } = decodeJwt(access)
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ sid, typ })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(String(iss))
    .setAudience(String(aud))
    .setSubject(String(sub))
    .setJti(randomUUID())
    .setIssuedAt(now - 960)
    .setExpirationTime(now - 60)
    .sign(await jwtSecret())
}

describe('the client an app copies (client/)', () => {
  it('carries the types openapi-typescript generates from the committed document', async () => {
    // As `npm run client:types` runs it: a field with a default stays optional in a body.
    const ast = await openapiTS(pathToFileURL(resolve(OPENAPI_FILE)), {
      defaultNonNullable: false,
    })

    // `npm run client:types` after `npm run openapi` when this fails.
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(COMMENT_HEADER + astToString(ast))
  }, 120_000)

  it('typechecks, and the generated types refuse mistyped calls', () => {
    const { config } = ts.readConfigFile('tsconfig.json', (file) => ts.sys.readFile(file))
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, resolve('.'))
    // globalSetup.ts declares what `inject` provides.
    const files = [
      'client/walletApi.ts',
      'tests/e2e/walletApiClient.test.ts',
      'tests/support/globalSetup.ts',
    ].map((file) => resolve(file))
    const program = ts.createProgram(files, { ...options, noEmit: true })
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file?.fileName.replace(`${resolve('.')}/`, '') ?? ''
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
    })

    expect(program.getSourceFiles().map((file) => file.fileName)).toContain(TYPES_FILE)
    expect(diagnostics).toEqual([])
  }, 180_000)

  it('signs in with a wallet, quotes, prepares, signs, submits and lists the trades', async () => {
    const dex = deployment('ethereum')
    const wallet = await fundedAccount('ethereum', { tokens: { LINK: parseEther('30') } })
    const { sent, fetch } = recordingFetch()
    const sessions: Array<string | undefined> = []
    const client = createWalletApi({
      baseUrl: inject('apiUrl'),
      fetch,
      onSession: (session) => sessions.push(session?.access),
    })
    const swap = {
      amount: '30',
      address0: dex.token('LINK'),
      decimals0: 18,
      address1: dex.usdStablecoin,
      decimals1: 6,
    }

    const signedIn = await client.signInWithWallet(wallet.account)
    const quote = resultOf(
      'quote',
      await client.api.GET('/api/v1/swap/quote/ethereum', { params: { query: swap } }),
    )
    const prepared = resultOf(
      'prepare',
      await client.api.POST('/api/v1/prepare/swap/tokens/ethereum', { body: swap }),
    )
    // The document's formats (0x and hex digits) are checked where the service writes them.
    const signed = await signAll(wallet.account, prepared.transactions as PreparedTransaction[])
    const submitted = resultOf(
      'submit',
      await client.api.POST('/api/v1/submit/ethereum', { body: { transactions: signed } }),
    )
    const receipt = await devnet('ethereum').waitForTransactionReceipt({
      hash: submitted.txId as Hex,
    })
    const trade = resultOf(
      'trade',
      await client.api.GET('/api/v1/trade/hash/{hash}', {
        params: { path: { hash: submitted.txId } },
      }),
    )
    const trades = resultOf(
      'trades',
      await client.api.GET('/api/v1/trades', { params: { query: { direction: 'ASC' } } }),
    )

    expect(signedIn.response.status).toBe(200)
    expect(sessions).toEqual([client.session?.access])
    expect(quote.path[0]).toBe(swap.address0)
    expect(prepared.transactions.map(({ kind }) => kind)).toEqual(['approval', 'swap'])
    expect(submitted.txIds).toHaveLength(2)
    expect(receipt.status).toBe('success')
    expect(trade).toMatchObject({ type: 'swap', status: 'successful', amountExact: '30' })
    expect(trades).toEqual({
      count: 2,
      trades: [
        expect.objectContaining({ type: 'approval', amount: 30, amountExact: '30' }),
        expect.objectContaining({ type: 'swap', amount: 30, amountExact: '30' }),
      ],
    })
    // Only the money-moving call carried an Idempotency-Key, and only it.
    expect(
      sent.map(({ route, status, idempotencyKey }) => [route, status, idempotencyKey]),
    ).toEqual([
      [`GET /api/v1/auth/nonce/${wallet.address}`, 200, null],
      ['POST /api/v1/auth/login', 200, null],
      ['GET /api/v1/swap/quote/ethereum', 200, null],
      ['POST /api/v1/prepare/swap/tokens/ethereum', 200, null],
      ['POST /api/v1/submit/ethereum', 200, expect.stringMatching(/^[0-9a-f-]{36}$/)],
      [`GET /api/v1/trade/hash/${submitted.txId}`, 200, null],
      ['GET /api/v1/trades', 200, null],
    ])
  }, 180_000)

  it('refreshes once when the access token has expired, then sends the request again', async () => {
    const wallet = await fundedAccount('ethereum', { native: parseEther('1') })
    const { sent, fetch } = recordingFetch()
    const sessions: Array<string | undefined> = []
    const client = createWalletApi({
      baseUrl: inject('apiUrl'),
      fetch,
      onSession: (session) => sessions.push(session?.access),
    })
    resultOf('sign-in', await client.signInWithWallet(wallet.account))
    const live = client.session
    if (!live) throw new Error('signed in without a session')
    // An app that comes back after 15 minutes with the tokens it kept.
    client.resume('wallet', { access: await expiredCopy(live.access), refresh: live.refresh })
    sent.length = 0

    const trades = await client.api.GET('/api/v1/trades')
    const again = await client.api.GET('/api/v1/networks/wallet/balance')

    expect(trades.data?.result).toEqual({ count: 0, trades: [] })
    expect(again.response.status).toBe(200)
    expect(sent.map(({ route, status }) => [route, status])).toEqual([
      ['GET /api/v1/trades', 401],
      ['GET /api/v1/auth/refresh', 200],
      ['GET /api/v1/trades', 200],
      ['GET /api/v1/networks/wallet/balance', 200],
    ])
    expect(client.session?.refresh).not.toBe(live.refresh)
    expect(sessions).toHaveLength(3)
    expect(sessions.at(-1)).toBe(client.session?.access)
  }, 120_000)

  it('signs in with an account, and retries a 429 after its Retry-After', async () => {
    const { sent, fetch } = recordingFetch()
    const waits: number[] = []
    const client = createWalletApi({
      baseUrl: inject('apiUrl'),
      fetch,
      maxRetries: 1,
      // The lockout's Retry-After is up to 15 minutes: this app would wait that long, and the
      // test records the wait instead of spending it.
      maxRetryAfterSeconds: 900,
      wait: (milliseconds) => {
        waits.push(milliseconds)
        return Promise.resolve()
      },
    })
    const username = `client_${randomUUID().slice(0, 8)}`
    const password = randomUUID()
    await client.api.POST('/api/v1/account/register', { body: { username, password } })

    const failed = []
    for (let attempt = 0; attempt < 6; attempt += 1) {
      failed.push(await client.signInWithAccount(username, `${password}!`))
    }
    const locked = failed.at(-1)
    const retryAfter = Number(locked?.response.headers.get('Retry-After'))

    const codes = failed.map(({ error }) => (error && 'ok' in error ? error.error.code : undefined))
    expect(codes.slice(0, 5)).toEqual([401004, 401004, 401004, 401004, 401004])
    expect(locked?.response.status).toBe(429)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(900)
    // The sixth was sent twice: once, then once more after the wait the service asked for.
    expect(waits).toEqual([expect.any(Number)])
    expect(waits[0]).toBeGreaterThanOrEqual(retryAfter * 1000)
    expect(sent.filter(({ route }) => route === 'POST /api/v1/account/login')).toHaveLength(7)
    expect(client.session).toBeUndefined()
  }, 120_000)
})
