// `npm run load`: autocannon against `serverless offline` on the public and authenticated read
// routes. Starts its own local stack on free ports, signs a wallet and an account in, seeds what
// the routes read (attached networks, a watchlist, trades from real transfers), then per route a
// warm-up and a measured run. Exits non-zero when any request errs, times out, is not a 2xx or
// does not carry the success envelope. Not part of `npm test`: wall time depends on the machine.
// Then many clients, each from its own loopback address, signing in at once within their own
// per-client budgets (tests/load/clients.ts): it exits non-zero when any of them is answered 429,
// or when the control client, past its own budgets, is not.
// Options: --requests N (default 2000), --connections N (default 20), --clients N (default 20),
// --client-requests N (per client, default 25: 500 in all), --only routes|clients.

import autocannon from 'autocannon'
import { randomUUID } from 'node:crypto'
import { cpus, loadavg, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import { createWalletClient, type Hex, http, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { projectId } from '../../lib/db/project'
import { defineDevnetChain } from '../../lib/local/deployDex'
import { type LocalStack, servedDeployment, startLocalStack } from '../../lib/local/localStack'
import { type ClientsFigures, runClientsScenario } from './clients'

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '20' },
    clients: { type: 'string', default: '20' },
    'client-requests': { type: 'string', default: '25' },
    only: { type: 'string' },
  },
})
const REQUESTS = Number(args.requests)
const CONNECTIONS = Number(args.connections)
// A warm-up at the same concurrency loads every worker the measured run will use.
const WARM_UP_REQUESTS = CONNECTIONS * 5
const MAX_WARM_UPS = 10
const WARM_MAX_MS = 1000
// Transfers seeded as the wallet's trades, so the list and the lookup read real records.
const SEEDED_TRADES = 10

interface Route {
  name: string
  auth: 'public' | 'wallet' | 'account'
  path: string
}

interface RouteFigures {
  route: Route
  requests: number
  p50: number
  p90: number
  p99: number
  max: number
  rps: number
  errors: number
  non2xx: number
  badBodies: number
}

/** One JSON request to the API; anything but the success envelope throws with the error only. */
async function call<Result>(
  apiUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Result> {
  const response = await fetch(`${apiUrl}/api/v1${path}`, {
    method,
    headers: {
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const envelope = (await response.json()) as { ok?: boolean; result?: Result; error?: unknown }
  // The route template, never the path: the transfer paths carry the wallet's key.
  const route = path.startsWith('/transfer/') ? '/transfer/tokens/ethereum/{key}' : path
  if (!envelope.ok || envelope.result === undefined) {
    throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(envelope.error)}`)
  }
  return envelope.result
}

async function signInWallet(apiUrl: string, privateKey: Hex): Promise<string> {
  const account = privateKeyToAccount(privateKey)
  const { message } = await call<{ message: string }>(
    apiUrl,
    'GET',
    `/auth/nonce/${account.address}`,
  )
  const signature = await account.signMessage({ message })
  const tokens = await call<{ access: string }>(apiUrl, 'POST', '/auth/login', {
    body: { address: account.address, signature },
  })
  return tokens.access
}

/** Registers an account; the returned function signs it in (a new session each time). */
async function registerAccount(apiUrl: string): Promise<() => Promise<string>> {
  // Made up per run and never printed.
  const credentials = { username: `load_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await call(apiUrl, 'POST', '/account/register', { body: credentials })
  return async () => {
    const { token } = await call<{ token: { access: string } }>(apiUrl, 'POST', '/account/login', {
      body: credentials,
    })
    return token.access
  }
}

/** A wallet with networks attached, five watched projects and SEEDED_TRADES trades. */
async function seedWallet(stack: LocalStack, apiUrl: string) {
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address
  const token = await signInWallet(apiUrl, privateKey)
  const { networks } = await call<{ networks: Array<{ id: string }> }>(apiUrl, 'GET', '/networks')
  await call(apiUrl, 'POST', '/networks/wallet', {
    token,
    body: { networkIds: networks.map(({ id }) => id) },
  })
  const { tokens } = await call<{ tokens: Array<{ id: string }> }>(
    apiUrl,
    'GET',
    '/swap/tokens?limit=5',
  )
  for (const { id } of tokens) await call(apiUrl, 'POST', `/watchlist/${id}`, { token })

  // Coins from the demo account, then real transfers through the API: each records a trade.
  const ethereum = servedDeployment(stack.deployments, 'ethereum')
  const demo = createWalletClient({
    account: privateKeyToAccount(stack.demoAccount.privateKey as Hex),
    chain: defineDevnetChain(ethereum),
    transport: http(ethereum.rpcUrl),
  })
  await demo.sendTransaction({ to: address, value: parseEther('10') })
  const hashes: string[] = []
  for (let index = 0; index < SEEDED_TRADES; index += 1) {
    const { txId } = await call<{ txId: string }>(
      apiUrl,
      'POST',
      `/transfer/tokens/ethereum/${privateKey}`,
      { token, body: { to: privateKeyToAccount(generatePrivateKey()).address, amount: '0.01' } },
    )
    hashes.push(txId)
  }
  const { trades } = await call<{ trades: Array<{ id: string }> }>(apiUrl, 'GET', '/trades', {
    token,
  })
  if (trades.length !== SEEDED_TRADES) throw new Error(`seeded ${trades.length} trades`)
  return {
    signIn: () => signInWallet(apiUrl, privateKey),
    tradeId: trades[0]?.id,
    tradeHash: hashes.at(-1),
  }
}

async function measure(apiUrl: string, route: Route, token?: string): Promise<RouteFigures> {
  let badBodies = 0
  const run = (amount: number) =>
    autocannon({
      url: apiUrl,
      connections: CONNECTIONS,
      amount,
      timeout: 10,
      requests: [
        {
          method: 'GET',
          path: `/api/v1${route.path}`,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          // serverless offline answers a crashed or timed-out handler with a 200 and the crash:
          // the envelope is what proves the route worked.
          onResponse: (_status, body) => {
            if (!body.startsWith('{"ok":true,"result":')) badBodies += 1
          },
        },
      ],
    })
  // serverless offline starts a worker thread per concurrent request of a function, each a cold
  // start of several seconds on a busy machine, and starts more while those load. Warm up until
  // a round is clean and quick; only the measured run has to be free of errors.
  for (let round = 1; round <= MAX_WARM_UPS; round += 1) {
    badBodies = 0
    const warmUp = await run(WARM_UP_REQUESTS)
    const failed = warmUp.errors + warmUp.timeouts + warmUp.non2xx + badBodies
    if (failed === 0 && warmUp.latency.max < WARM_MAX_MS) break
  }
  badBodies = 0
  const result = await run(REQUESTS)
  return {
    route,
    requests: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    rps: result.requests.total / result.duration,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    badBodies,
  }
}

function table(figures: RouteFigures[]): string {
  const header = [
    '| route | token | requests | connections | p50 ms | p90 ms | p99 ms | max ms | req/s | errors | non-2xx |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  const rows = figures.map(
    (row) =>
      `| ${row.route.name} | ${row.route.auth} | ${row.requests} | ${CONNECTIONS} | ${row.p50} | ${row.p90} | ${row.p99} | ${row.max} | ${row.rps.toFixed(0)} | ${row.errors + row.badBodies} | ${row.non2xx} |`,
  )
  return [...header, ...rows].join('\n')
}

async function measureRoutes(stack: LocalStack, apiUrl: string): Promise<boolean> {
  const wallet = await seedWallet(stack, apiUrl)
  const signInAccount = await registerAccount(apiUrl)
  const ethereum = servedDeployment(stack.deployments, 'ethereum')
  const link = ethereum.tokens.find(({ symbol }) => symbol === 'LINK')
  if (!link || !wallet.tradeId) throw new Error('the demo catalog or the seeding is incomplete')
  const linkProject = projectId('ethereum', link.address)
  const quote = new URLSearchParams({
    amount: '1',
    address0: link.address,
    decimals0: '18',
    address1: ethereum.usdStablecoin,
    decimals1: '6',
  })
  const routes: Route[] = [
    { name: 'GET /v1/networks', auth: 'public', path: '/networks' },
    { name: 'GET /v1/swap/tokens', auth: 'public', path: '/swap/tokens?limit=20' },
    {
      name: 'GET /v1/swap/quote/ethereum',
      auth: 'public',
      path: `/swap/quote/ethereum?${quote.toString()}`,
    },
    {
      name: 'GET /v1/price/history/daily/{id}',
      auth: 'public',
      path: `/price/history/daily/${linkProject}`,
    },
    {
      name: 'GET /v1/price/history/monthly/{id}',
      auth: 'public',
      path: `/price/history/monthly/${linkProject}`,
    },
    {
      name: 'GET /v1/price/history/yearly/{id}',
      auth: 'public',
      path: `/price/history/yearly/${linkProject}`,
    },
    {
      name: 'GET /v1/project/{id}',
      auth: 'account',
      path: `/project/${linkProject}`,
    },
    {
      name: 'GET /v1/watchlist/projects',
      auth: 'wallet',
      path: '/watchlist/projects',
    },
    { name: 'GET /v1/trades', auth: 'wallet', path: '/trades?limit=10' },
    {
      name: 'GET /v1/trade/id/{id}',
      auth: 'wallet',
      path: `/trade/id/${wallet.tradeId}`,
    },
    {
      name: 'GET /v1/trade/hash/{hash}',
      auth: 'wallet',
      path: `/trade/hash/${wallet.tradeHash}`,
    },
    {
      name: 'GET /v1/networks/wallet/balance',
      auth: 'wallet',
      path: '/networks/wallet/balance',
    },
  ]
  // Other work on the machine moves every figure: the load average is printed beside them.
  const loadBefore = loadavg()[0] ?? 0
  const figures: RouteFigures[] = []
  for (const route of routes) {
    // A session per route: the whole run outlasts one access token (15 minutes).
    const signIn = { public: undefined, wallet: wallet.signIn, account: signInAccount }[route.auth]
    const row = await measure(apiUrl, route, await signIn?.())
    figures.push(row)
    console.log(
      `${route.name}: p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.rps.toFixed(0)} req/s, errors ${row.errors}, non-2xx ${row.non2xx}, not the envelope ${row.badBodies}`,
    )
  }
  console.log(
    [
      '',
      machineLine(),
      `load average ${loadBefore.toFixed(1)} before the runs, ${(loadavg()[0] ?? 0).toFixed(1)} after (1 min)`,
      `${REQUESTS} requests per route at ${CONNECTIONS} connections after warm-up rounds of ${WARM_UP_REQUESTS} (until one is clean and under ${WARM_MAX_MS} ms); serverless offline, access log on`,
      '',
      table(figures),
    ].join('\n'),
  )
  const failed = figures.filter((row) => row.errors + row.non2xx + row.badBodies > 0)
  if (failed.length > 0) {
    console.error(`\nFAILED: ${failed.map(({ route }) => route.name).join(', ')}`)
  }
  return failed.length === 0
}

function machineLine(): string {
  const cpu = cpus()
  return `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`
}

function clientsReport(figures: ClientsFigures, loadBefore: number): string {
  const statuses = Object.entries(figures.statuses)
    .map(([status, count]) => `${status} ×${count}`)
    .join(', ')
  return [
    '',
    machineLine(),
    `load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after (1 min); serverless offline with the deployed per-client budgets, behind the local gateway front`,
    `${figures.requests} requests from ${figures.clients} loopback clients at once (${figures.requests / figures.clients} each: the networks, then wallet sign-ins, a nonce and a login each) in ${figures.seconds.toFixed(1)} s, after ${figures.warmUps} warm-up rounds from other addresses: ${statuses}; clients answered 429: ${figures.limitedClients}; p50 ${figures.p50.toFixed(0)} ms, p99 ${figures.p99.toFixed(0)} ms`,
    `control, one more client past its own budgets: ${figures.control.limited} of ${figures.control.requests} answered 429`,
    ...Object.entries(figures.failures).map(([kind, count]) => `failed: ${kind} ×${count}`),
  ].join('\n')
}

async function main(): Promise<void> {
  const startedAt = Date.now()
  // The deployed per-client budgets (the suite raises them; this run must not), but for the RPC
  // budget of anonymous quotes (DECISIONS §9.4): every autocannon connection is 127.0.0.1, one
  // client, so it is raised for the measured run to be the routes, not that client's 429. The
  // clients scenario (sign-in budgets) runs on the deployed ones.
  const stack = await startLocalStack({
    ports: 'free',
    offline: true,
    functionEnv: { CLIENT_LIMIT_RPC_CALLS_PER_MINUTE: '100000000' },
  })
  const stop = () => stack.stop()
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)))
  try {
    const apiUrl = stack.apiUrl
    if (!apiUrl) throw new Error('serverless offline did not start')
    console.log(`local stack ready in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`)
    let passed = true
    if (args.only !== 'clients') passed = (await measureRoutes(stack, apiUrl)) && passed
    if (args.only !== 'routes') {
      const loadBefore = loadavg()[0] ?? 0
      const figures = await runClientsScenario(apiUrl, {
        clients: Number(args.clients),
        requestsPerClient: Number(args['client-requests']),
      })
      console.log(clientsReport(figures, loadBefore))
      const other = figures.requests - (figures.statuses[200] ?? 0)
      if (figures.limitedClients > 0 || other > 0 || figures.control.limited === 0) {
        console.error(
          `\nFAILED: ${figures.limitedClients} clients limited, ${other} answers not 200, ` +
            `control limited ${figures.control.limited} times`,
        )
        passed = false
      }
    }
    if (!passed) process.exitCode = 1
  } finally {
    await stop()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
