import '../support/env'
import { randomUUID } from 'node:crypto'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { handler as loginAccount } from '../../functions/account/loginAccount'
import { handler as refreshAccountSession } from '../../functions/account/refreshAccountSession'
import { handler as registerAccount } from '../../functions/account/registerAccount'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as refreshWalletSession } from '../../functions/auth/refreshWalletSession'
import { handler as attachWalletNetworks } from '../../functions/networks/attachWalletNetworks'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { handler as listNetworks } from '../../functions/networks/listNetworks'
import { handler as getDailyPriceHistory } from '../../functions/price/getDailyPriceHistory'
import { handler as getProjectDetails } from '../../functions/project/getProjectDetails'
import { handler as listTokens } from '../../functions/swap/listSwapTokens'
import { handler as getTradeById } from '../../functions/trade/getTradeById'
import { handler as listTrades } from '../../functions/trades/listTrades'
import { handler as addToWatchlist } from '../../functions/watchlist/addToWatchlist'
import { handler as listWatchlist } from '../../functions/watchlist/listWatchlist'
import { loadCoreConfig } from '../../lib/config'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '../../lib/db/client'
import { networkId } from '../../lib/db/network'
import { DatabaseUnavailable } from '../../lib/errors'
import { seedLocalData } from '../../lib/local/seedLocalData'
import { devnet } from '../support/devnetAccounts'
import {
  countDynamoAttempts,
  type DynamoAttempts,
  dynamoTimeouts,
  expectOutage,
  FAULT_BOUND_MS,
  faultLog,
  type RestartableDynamo,
  startRestartableDynamo,
  timed,
  untilServed,
} from '../support/faultEngines'
import { type EnvelopeResponse, httpEvent, invoke } from '../support/httpEvent'
import { bearer, createProject } from '../support/marketFixtures'
import { signInWithWallet } from '../support/walletSignIn'
import { networkRoute } from '../../lib/networkRoutes/networkRoutes'

const transferEthereum = networkRoute('transfer', 'ethereum')

// DynamoDB Local of this file's own, stopped, frozen and restarted while the handlers stay loaded:
// every route answers 503 once each command it sent has had the configured attempts
// (DYNAMODB_MAX_ATTEMPTS, each ended by a refusal or the DYNAMODB_REQUEST_TIMEOUT_MS timeout),
// and works again once the database is back, with the same modules and the same SDK client. The
// attempts and the timeouts bound the answer time, so they are what is asserted; the measured
// times only go to the fault log, since a loaded machine stretches them. The SDK retries while
// its retry quota lasts (500 tokens, 14 a retry, 1 back a success): about 35 failed commands,
// where this file fails 22. The chain stays the shared devnets, which never go down here.

const log = faultLog('databaseOutage')
const SEED_TRIES = 20

let dynamo: RestartableDynamo
let wallet: { privateKey: Hex; address: `0x${string}`; access: string; refresh: string }
let account: { username: string; password: string; access: string; refresh: string }
let projectId: string
// A username whose registration the outage refused.
const failedWrites = { username: '' }
let attempts: DynamoAttempts

beforeAll(async () => {
  dynamo = await startRestartableDynamo()
  // Before any handler reads its configuration: the modules build their client on first use.
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
  // A fresh JVM on a loaded machine can miss the handlers' 1 s timeout for a while after its
  // warm-up: the seed (upserts) is tried until it lands, within the hook's own bound. Without
  // the price history's backfill: its ~1,500 writes would meet those timeouts too, and their
  // retries spend the SDK's retry quota whose attempts this file counts.
  for (let tries = 1; ; tries += 1) {
    try {
      await seedLocalData(Object.values(inject('deployments')), { priceHistory: false })
      break
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable) || tries === SEED_TRIES) throw error
    }
  }
  const privateKey = generatePrivateKey()
  wallet = { privateKey, ...(await signInWithWallet(privateKey)) }
  const credentials = { username: `fault_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await invoke(registerAccount, post('POST /api/v1/account/register', credentials))
  const login = await invoke(loginAccount, post('POST /api/v1/account/login', credentials))
  const { token } = login.body.result as { token: { access: string; refresh: string } }
  account = { ...credentials, ...token }
  projectId = (await createProject()).id
  attempts = countDynamoAttempts(db())
}, 120_000)

afterAll(async () => {
  attempts?.stop()
  log.write()
  await dynamo?.close()
})

function post(routeKey: string, body: unknown, headers: Record<string, string> = {}) {
  return httpEvent({ routeKey, body, headers })
}

interface RouteCall {
  name: string
  call: () => Promise<EnvelopeResponse>
}

/** One request per kind of table access: public reads, sign-in, guarded reads and writes. */
function routeCalls(): RouteCall[] {
  const walletAuth = bearer(wallet.access)
  const accountAuth = bearer(account.access)
  return [
    {
      name: 'GET /v1/networks',
      call: () => invoke(listNetworks, httpEvent({ route: 'listNetworks' })),
    },
    {
      name: 'GET /v1/swap/tokens',
      call: () => invoke(listTokens, httpEvent({ route: 'listSwapTokens' })),
    },
    {
      name: 'GET /v1/price/history/daily/{projectId}',
      call: () =>
        invoke(
          getDailyPriceHistory,
          httpEvent({
            route: 'getDailyPriceHistory',
            pathParameters: { projectId },
          }),
        ),
    },
    {
      name: 'GET /v1/auth/nonce/{address}',
      call: () =>
        invoke(
          getNonce,
          httpEvent({
            route: 'getNonce',
            pathParameters: { address: privateKeyToAccount(generatePrivateKey()).address },
          }),
        ),
    },
    {
      name: 'POST /v1/account/login',
      call: () =>
        invoke(
          loginAccount,
          post('POST /api/v1/account/login', {
            username: account.username,
            password: account.password,
          }),
        ),
    },
    {
      name: 'GET /v1/project/{projectId}',
      call: () =>
        invoke(
          getProjectDetails,
          httpEvent({
            route: 'getProjectDetails',
            pathParameters: { projectId },
            headers: accountAuth,
          }),
        ),
    },
    {
      name: 'GET /v1/trades',
      call: () => invoke(listTrades, httpEvent({ route: 'listTrades', headers: walletAuth })),
    },
    {
      name: 'GET /v1/trade/id/{tradeId}',
      call: () =>
        invoke(
          getTradeById,
          httpEvent({
            route: 'getTradeById',
            pathParameters: { tradeId: randomUUID() },
            headers: walletAuth,
          }),
        ),
    },
    {
      name: 'GET /v1/watchlist/projects',
      call: () => invoke(listWatchlist, httpEvent({ route: 'listWatchlist', headers: walletAuth })),
    },
    {
      name: 'GET /v1/networks/wallet/balance',
      call: () =>
        invoke(getWalletBalances, httpEvent({ route: 'getWalletBalances', headers: walletAuth })),
    },
  ]
}

/** Requests that write: each must leave nothing behind when it fails. */
const writes = {
  'POST /v1/account/register': (username: string) =>
    invoke(
      registerAccount,
      post('POST /api/v1/account/register', { username, password: randomUUID() }),
    ),
  'POST /v1/watchlist/{projectId}': () =>
    invoke(
      addToWatchlist,
      httpEvent({
        route: 'addToWatchlist',
        pathParameters: { projectId },
        headers: bearer(wallet.access),
      }),
    ),
  'POST /v1/networks/wallet': () =>
    invoke(
      attachWalletNetworks,
      post(
        'POST /api/v1/networks/wallet',
        { networkIds: [networkId('ethereum')] },
        bearer(wallet.access),
      ),
    ),
  'GET /v1/auth/refresh': () =>
    invoke(
      refreshWalletSession,
      httpEvent({ route: 'refreshWalletSession', headers: bearer(wallet.refresh) }),
    ),
  'GET /v1/account/refresh': () =>
    invoke(
      refreshAccountSession,
      httpEvent({ route: 'refreshAccountSession', headers: bearer(account.refresh) }),
    ),
  'POST /v1/transfer/tokens/ethereum/{key}': () =>
    invoke(
      transferEthereum,
      httpEvent({
        route: 'transferEthereum',
        pathParameters: { key: wallet.privateKey },
        headers: { ...bearer(wallet.access), 'idempotency-key': randomUUID() },
        body: { to: privateKeyToAccount(generatePrivateKey()).address, amount: '0.1' },
      }),
    ),
}

/**
 * The SDK's retry quota (its StandardRetryStrategy's token bucket: 500 tokens; each retry after a
 * refusal or a timeout costs the same tokens, and with fewer left a command makes one attempt).
 * This file's long outage spends it, so it is read around each call.
 */
async function retryQuota(): Promise<number> {
  // getCapacity is public on the strategy the client resolves, not on its interface type.
  const strategy = (await db().config.retryStrategy()) as { getCapacity?: () => number }
  if (!strategy.getCapacity) throw new Error('the table client has no retry quota to read')
  return strategy.getCapacity()
}

/** Runs `call`, timed for the log, with each DynamoDB command it sent and the quota around it. */
async function counted(call: () => Promise<EnvelopeResponse>) {
  await attempts.take()
  const quotaBefore = await retryQuota()
  const { result, ms } = await timed(call)
  const commands = await attempts.take()
  return { result, ms, commands, quota: { before: quotaBefore, after: await retryQuota() } }
}

/** What one retry costs the quota: measured on the first command of the outage (calibrate). */
let retryCost = 0

/**
 * Sends one read while the database is down: it makes the configured attempts, each refused,
 * and what they drew from the quota is the cost of a retry (the SDK's own figure, not ours).
 */
async function calibrate() {
  const { dynamoMaxAttempts } = loadCoreConfig()
  const { commands, quota } = await counted(() =>
    db()
      .send(new GetCommand({ TableName: tableName(), Key: { pk: 'CALIBRATE', sk: 'CALIBRATE' } }))
      .then(
        () => ({ status: 200, body: { ok: true } }),
        () => ({ status: 503, body: { ok: false } }),
      ),
  )
  expect(commands).toEqual([
    { attempts: dynamoMaxAttempts, failures: Array(dynamoMaxAttempts).fill('ECONNREFUSED') },
  ])
  retryCost = (quota.before - quota.after) / (dynamoMaxAttempts - 1)
  expect(Number.isInteger(retryCost) && retryCost > 0).toBe(true)
}

/**
 * The 503 envelope, after the configured attempts of every command the route sent, each failed
 * the way the fault makes it fail: as many retries as the quota could pay for (every one, while
 * it lasts), and the quota charged for exactly those.
 */
function expectUnavailable(
  response: EnvelopeResponse,
  { commands, quota }: Pick<Awaited<ReturnType<typeof counted>>, 'commands' | 'quota'>,
  failure: 'ECONNREFUSED' | 'TimeoutError',
) {
  expectOutage(response, {
    code: 503,
    message: 'the database is unavailable; try again shortly',
  })
  const { dynamoMaxAttempts } = loadCoreConfig()
  expect(commands).not.toEqual([])
  for (const command of commands) {
    expect(command.failures).toEqual(Array(command.attempts).fill(failure))
    expect(command.attempts).toBeGreaterThanOrEqual(1)
    expect(command.attempts).toBeLessThanOrEqual(dynamoMaxAttempts)
  }
  const retries = commands.reduce((sum, command) => sum + command.attempts - 1, 0)
  const affordable = Math.floor(quota.before / retryCost)
  expect(retries).toBe(Math.min(commands.length * (dynamoMaxAttempts - 1), affordable))
  expect(quota.after).toBe(quota.before - retries * retryCost)
}

describe('a DynamoDB that stops mid-run and comes back', () => {
  let client: ReturnType<typeof db>

  it('gives up within 3 s by configuration: attempts × the per-attempt timeout', async () => {
    const { dynamoMaxAttempts, dynamoRequestTimeoutMs } = loadCoreConfig()
    // Read once the handler has resolved its options, that is after a first request.
    const handler = dynamoTimeouts(db())

    expect(await db().config.maxAttempts()).toBe(dynamoMaxAttempts)
    expect(dynamoMaxAttempts).toBeGreaterThan(1)
    expect(handler).toMatchObject({
      connectionTimeout: dynamoRequestTimeoutMs,
      requestTimeout: dynamoRequestTimeoutMs,
      throwOnRequestTimeout: true,
    })
    // The SDK's pause before a retry (a random share of 2^n × 50 ms) fits in what is left.
    expect(dynamoMaxAttempts * dynamoRequestTimeoutMs).toBeLessThan(FAULT_BOUND_MS)
  })

  it('serves every route while it is up', async () => {
    client = db()
    for (const route of routeCalls()) {
      const response = await route.call()
      expect({ route: route.name, status: response.status }).toEqual({
        route: route.name,
        status: route.name.startsWith('GET /v1/trade/id') ? 404 : 200,
      })
    }
  })

  it('answers every route with the 503 envelope once it is stopped, after the configured attempts', async () => {
    await dynamo.stop()
    await calibrate()

    for (const route of routeCalls()) {
      const { result, ms, ...attempted } = await counted(route.call)

      log.record({ fault: 'dynamodb stopped', what: route.name, status: result.status, ms })
      expectUnavailable(result, attempted, 'ECONNREFUSED')
    }
  })

  it('answers the writing routes 503 after the configured attempts and sends no transaction', async () => {
    const username = `fault_${randomUUID().slice(0, 8)}`
    const nonceBefore = await devnet('ethereum').getTransactionCount({
      address: wallet.address,
      blockTag: 'pending',
    })

    for (const [name, call] of Object.entries({
      ...writes,
      'POST /v1/account/register': () => writes['POST /v1/account/register'](username),
    })) {
      const { result, ms, ...attempted } = await counted(call)

      log.record({ fault: 'dynamodb stopped', what: name, status: result.status, ms })
      expectUnavailable(result, attempted, 'ECONNREFUSED')
    }
    expect(
      await devnet('ethereum').getTransactionCount({
        address: wallet.address,
        blockTag: 'pending',
      }),
    ).toBe(nonceBefore)
    failedWrites.username = username
  })

  it('serves again after a restart on the same port, with the same client', async () => {
    const restartedAt = performance.now()
    await dynamo.start()
    const portBackMs = Math.round(performance.now() - restartedAt)

    const firstServedMs = await untilServed(routeCalls()[0]!.call, 503)

    log.record({
      fault: 'dynamodb restarted',
      what: 'port answering, warmed up',
      status: 'up',
      ms: portBackMs,
    })
    log.record({
      fault: 'dynamodb restarted',
      what: 'first 200 after it answered',
      status: 200,
      ms: firstServedMs,
    })
    expect(db()).toBe(client)
    for (const route of routeCalls()) {
      const { result, ms } = await timed(route.call)
      log.record({ fault: 'dynamodb back', what: route.name, status: result.status, ms })
      expect({ route: route.name, status: result.status }).toEqual({
        route: route.name,
        status: route.name.startsWith('GET /v1/trade/id') ? 404 : 200,
      })
    }
  })

  it('kept nothing of the writes it refused', async () => {
    // The username is free, the watchlist and attached networks empty, both refresh tokens
    // unrotated (a rotation would make their reuse a replay: 401003).
    expect((await writes['POST /v1/account/register'](failedWrites.username)).status).toBe(200)
    const watchlist = await invoke(
      listWatchlist,
      httpEvent({ route: 'listWatchlist', headers: bearer(wallet.access) }),
    )
    expect(watchlist).toEqual({ status: 200, body: { ok: true, result: { watchlist: [] } } })
    const balances = await invoke(
      getWalletBalances,
      httpEvent({
        route: 'getWalletBalances',
        headers: bearer(wallet.access),
      }),
    )
    expect(balances).toEqual({ status: 200, body: { ok: true, result: { networksBalance: [] } } })
    const trades = await invoke(
      listTrades,
      httpEvent({ route: 'listTrades', headers: bearer(wallet.access) }),
    )
    expect(trades.body.result).toMatchObject({ count: 0, trades: [] })
    const walletRefresh = await writes['GET /v1/auth/refresh']()
    const accountRefresh = await writes['GET /v1/account/refresh']()
    expect([walletRefresh.status, accountRefresh.status]).toEqual([200, 200])
    // The old access tokens ended with the rotation; later requests use the new ones.
    Object.assign(wallet, walletRefresh.body.result)
    Object.assign(account, (accountRefresh.body.result as { token: object }).token)
  })
})

describe('a DynamoDB that hangs (SIGSTOP) and resumes', () => {
  it('answers 503 after the configured attempts, each ended by the request timeout', async () => {
    dynamo.freeze()
    try {
      const calls = [
        ...routeCalls().slice(0, 2),
        { name: 'GET /v1/account/refresh', call: writes['GET /v1/account/refresh'] },
      ]
      for (const route of calls) {
        const { result, ms, ...attempted } = await counted(route.call)

        log.record({ fault: 'dynamodb frozen', what: route.name, status: result.status, ms })
        // Not a refused connection: each attempt ran into the request timeout.
        expectUnavailable(result, attempted, 'TimeoutError')
      }
    } finally {
      dynamo.thaw()
    }
  })

  it('serves again once it resumes', async () => {
    const firstServedMs = await untilServed(routeCalls()[0]!.call, 503)

    log.record({ fault: 'dynamodb resumed', what: 'first 200', status: 200, ms: firstServedMs })
    for (const route of routeCalls()) {
      expect((await route.call()).status).toBeLessThan(500)
    }
  })
})
