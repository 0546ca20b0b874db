import { randomBytes, randomUUID } from 'node:crypto'
import {
  type Address,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  publicActions,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../../lib/networkNames'
import { functionName, type OperationName, operationsOf } from '../../lib/networks/operations'
import { declaredHandler } from './declaredHandler'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import { exampleOf, loadRouteDoc } from '../../lib/openapi/routeDoc'
import type { HttpEvent } from '../../lib/http/types'
import type { DexDeployment } from '../../lib/local/deployDex'
import { queryNetworks } from '../../lib/db/network'
import { attachWalletNetworks as attachNetworks } from '../../lib/db/walletNetwork'
import { listProjects } from '../../lib/db/project'
import { NATIVE_COIN } from '../../lib/constants'
import { recordTrade } from '../../lib/db/trade'
import { unwatchProject, watchProject } from '../../lib/db/watchlist'
import { devnetTransport } from './devnetTransport'
import { randomAddress } from './marketFixtures'
import {
  type EnvelopeResponse,
  httpEvent,
  type HttpEventOverrides,
  invoke,
  routeKeyOf,
} from './httpEvent'
import { byCatalog, pairedToken } from './networkCases'
import { type PreparedTransaction, signAll } from './signPrepared'
import { signedNonce, signInWithWallet } from './walletSignIn'

// One valid request for each /api/v1 route the stack serves, shared by the counts test
// (tests/functions/requestCosts.test.ts) and the bench (tests/bench/requests.ts). No vitest here:
// the bench runs it outside vitest, importing it after its own stack has set process.env.
// Routes are named as in serverless.yml, which gives each its route key and handler file; a
// route's documented request (its doc file, lib/openapi/routeDoc.ts) is sent as written where
// the devnets can serve it, so the document's examples are requests the service accepts.

type Handler = Parameters<typeof invoke>[0]
/** An event of a named route: serverless.yml gives its route key. */
type RouteEvent = Omit<HttpEventOverrides, 'route' | 'routeKey'>

export interface RouteRequest {
  /** The function's name in serverless.yml. */
  name: string
  /** Its route, from serverless.yml. */
  routeKey: string
  /** Changes nothing in the table or on chain: the "read route" goals apply. */
  read: boolean
  /**
   * Makes what one request needs (a fresh nonce, session or watch state) and returns the request.
   * Call it for each request: sessions, nonces and refresh tokens are single-use.
   */
  prepare(): Promise<() => Promise<EnvelopeResponse>>
  /** Fewer runs in the bench: scrypt (about 0.7 s a hash) dominates the account routes. */
  slow?: boolean
  /** The event itself, for a route whose request repeats: the cold-path bench sends it to a bundle. */
  event?: HttpEvent
  /** A new event each call, for a route whose requests differ (a fresh Idempotency-Key). */
  freshEvent?: () => HttpEvent
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const fundingRouterAbi = parseAbi([
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

/** A signed-in wallet holding the native coin and USDC, the router already approved for USDC. */
async function tradingWallet(dex: DexDeployment) {
  const privateKey = generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  const chain = defineChain({
    id: dex.chainId,
    name: dex.network,
    nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [dex.rpcUrl] } },
  })
  const transport = devnetTransport(dex.rpcUrl)
  const client = createTestClient({ mode: 'anvil', chain, transport, pollingInterval: 50 }).extend(
    publicActions,
  )
  const wallet = createWalletClient({ account, chain, transport })
  await client.setBalance({ address: account.address, value: parseEther('1000000') })
  const bought = await wallet.writeContract({
    address: dex.router,
    abi: fundingRouterAbi,
    functionName: 'swapETHForExactTokens',
    args: [
      parseUnits('100000', 6),
      [dex.wrappedNative, dex.usdStablecoin],
      account.address,
      maxUint256,
    ],
    value: parseEther('10000'),
  })
  await client.waitForTransactionReceipt({ hash: bought })
  // Approved up front, so each swap measured is the swap alone, not a first-time approval.
  const approved = await wallet.writeContract({
    address: dex.usdStablecoin,
    abi: erc20Abi,
    functionName: 'approve',
    args: [dex.swapRouter, maxUint256],
  })
  await client.waitForTransactionReceipt({ hash: approved })
  const { access } = await signInWithWallet(privateKey)
  return { privateKey, access }
}

const tokenOf = (dex: DexDeployment, symbol: string): Address => {
  const token = dex.tokens.find((candidate) => candidate.symbol === symbol)
  if (!token) throw new Error(`no ${symbol} on ${dex.network}`)
  return token.address
}

/**
 * Sets up what the routes need (a signed-in wallet with a trade, a watch and every network
 * attached, an account, a funded trading wallet per network) and returns one valid request per
 * route of the networks `deployments` holds and per route of no network.
 */
export async function routeRequests(
  deployments: Partial<Record<NetworkName, DexDeployment>>,
): Promise<RouteRequest[]> {
  const reader = await signInWithWallet()
  const networks = await queryNetworks()
  const networkIds = networks.map((network) => network.id)
  const [project] = await listProjects()
  if (!project) throw new Error('no catalog project: the stack seeds the demo catalog')
  await watchProject(reader.address, project.id)
  await attachNetworks(
    reader.address,
    networks.map((network) => network.network),
  )
  const hash = toHex(randomBytes(32))
  const { id: tradeId } = await recordTrade({
    hash,
    type: 'transfer',
    network: 'ethereum',
    wallet: reader.address,
    from: reader.address,
    to: randomAddress(),
    amount: '1',
    token: NATIVE_COIN,
    isNativeTransfer: true,
  })
  // Every network the stack serves, each with its routes (lib/networks/operations.ts).
  const served = NETWORK_NAMES.flatMap((network) => {
    const dex = deployments[network]
    return dex ? [dex] : []
  })
  const traders = new Map(
    await Promise.all(served.map(async (dex) => [dex.network, await tradingWallet(dex)] as const)),
  )
  const handlers = await declaredHandlers()
  const eventOf = (name: string, event: RouteEvent) => httpEvent({ route: name, ...event })
  const call = (name: string, event: RouteEvent) => {
    const handler = handlers.get(name)
    if (!handler) throw new Error(`serverless.yml declares no route ${name}`)
    return () => invoke(handler, eventOf(name, event))
  }
  const credentials = { username: `costs_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await call('registerAccount', { body: credentials })()

  /** The same request every time: reads, and writes that can repeat. */
  const same = (name: string, event: RouteEvent) =>
    Object.assign(
      (): Promise<() => Promise<EnvelopeResponse>> => Promise.resolve(call(name, event)),
      { event: eventOf(name, event) },
    )
  /** The route's documented request, with what the caller adds (a token). */
  const documented = async (name: string, extra: RouteEvent = {}) =>
    same(name, { ...(await documentedRequest(name)), ...extra })
  /** A login from the client its nonce was issued to, without `nonce`: the dearer path. */
  const walletLogin = async () => {
    const { address, signature, sourceIp } = await signedNonce()
    return call('loginWallet', { body: { address, signature }, sourceIp })
  }
  const accountTokens = async () => {
    const login = await call('loginAccount', { body: credentials })()
    return (login.body.result as { token: { access: string; refresh: string } }).token
  }
  // Project details take an account's access token.
  const accountHeaders = bearer((await accountTokens()).access)
  const swapBody = (dex: DexDeployment, address0: Address, address1: Address, amount: string) => {
    const decimals = (address: Address) =>
      address === NATIVE_COIN || address === dex.wrappedNative
        ? 18
        : address === dex.usdStablecoin
          ? 6
          : (dex.tokens.find((token) => token.address === address)?.decimals ?? 18)
    return {
      amount,
      address0,
      decimals0: decimals(address0),
      address1,
      decimals1: decimals(address1),
    }
  }
  // A fresh Idempotency-Key on every send, as a careful client sends: the costlier path.
  const signed = (name: string, trader: { privateKey: Hex; access: string }, body: unknown) => {
    const fresh = (): RouteEvent => ({
      pathParameters: { key: trader.privateKey },
      headers: { ...bearer(trader.access), 'idempotency-key': randomUUID() },
      body,
    })
    return Object.assign(() => Promise.resolve(call(name, fresh())), {
      freshEvent: () => eventOf(name, fresh()),
    })
  }
  /** A prepare route's request, as the trader's wallet app sends it. */
  const preparing = (name: string, trader: { access: string }, body: unknown) => () =>
    Promise.resolve(call(name, { headers: bearer(trader.access), body }))
  /** Prepared (through the real prepare route) and signed here; the submit alone is measured. */
  const submitting =
    (
      prepareName: string,
      submitName: string,
      trader: { privateKey: Hex; access: string },
      body: unknown,
    ) =>
    async () => {
      const prepared = await preparing(prepareName, trader, body)()
      const { result } = (await prepared()).body
      const { transactions } = result as { transactions: PreparedTransaction[] }
      const signed = await signAll(privateKeyToAccount(trader.privateKey), transactions)
      return call(submitName, {
        headers: { ...bearer(trader.access), 'idempotency-key': randomUUID() },
        body: { transactions: signed },
      })
    }
  const quote = (dex: DexDeployment, from: string, to: string) => {
    const body = swapBody(dex, tokenOf(dex, from), tokenOf(dex, to), '25')
    return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)]))
  }
  /** One request for each route of a network, the tokens its demo catalog lists. */
  const networkRoutes = (dex: DexDeployment): Array<Omit<RouteRequest, 'routeKey'>> => {
    const { network } = dex
    const trader = traders.get(network)
    if (!trader) throw new Error(`no trading wallet on ${network}`)
    const token = tokenOf(dex, pairedToken(network))
    const tokenSwap = swapBody(dex, dex.usdStablecoin, token, '1')
    const nativeSwap = swapBody(dex, NATIVE_COIN, dex.usdStablecoin, '0.01')
    const transfer = { to: randomAddress(), amount: '0.5', token: dex.usdStablecoin, decimals: 6 }
    const [from, to] = byCatalog(network, {
      ethereum: ['LINK', 'WBTC'],
      altchain: ['CAKE', 'BTCB'],
    } as const)
    const name = (operation: OperationName) => functionName(operation, network)
    const requests: Record<OperationName, Omit<RouteRequest, 'routeKey' | 'name'>> = {
      quote: {
        read: true,
        prepare: same(name('quote'), { queryStringParameters: quote(dex, from, to) }),
      },
      swapTokens: { read: false, prepare: signed(name('swapTokens'), trader, tokenSwap) },
      swapNative: { read: false, prepare: signed(name('swapNative'), trader, nativeSwap) },
      transfer: { read: false, prepare: signed(name('transfer'), trader, transfer) },
      // Prepare builds transactions; it sends and records nothing.
      prepareSwapTokens: {
        read: true,
        prepare: preparing(name('prepareSwapTokens'), trader, tokenSwap),
      },
      prepareSwapNative: {
        read: true,
        prepare: preparing(name('prepareSwapNative'), trader, nativeSwap),
      },
      prepareTransfer: {
        read: true,
        prepare: preparing(name('prepareTransfer'), trader, transfer),
      },
      submit: {
        read: false,
        prepare: submitting(name('prepareSwapTokens'), name('submit'), trader, tokenSwap),
      },
    }
    return operationsOf(NETWORKS[network].routes).map((operation) => ({
      name: name(operation.name),
      ...requests[operation.name],
    }))
  }
  const readerHeaders = bearer(reader.access)
  const [firstServed] = served
  if (!firstServed) throw new Error('the stack serves no network')
  const projectPath = { projectId: project.id }

  const routes: Array<Omit<RouteRequest, 'routeKey'>> = [
    {
      name: 'listNetworks',
      read: true,
      prepare: await documented('listNetworks'),
    },
    {
      name: 'getNonce',
      read: false, // issues a nonce
      // A fresh address each time: an address is issued at most 20 nonces a window (issue 22).
      prepare: () =>
        Promise.resolve(call('getNonce', { pathParameters: { address: randomAddress() } })),
    },
    {
      name: 'loginWallet',
      read: false,
      prepare: walletLogin,
    },
    {
      name: 'refreshWalletSession',
      read: false,
      prepare: async () => {
        const { refresh } = await signInWithWallet()
        return call('refreshWalletSession', { headers: bearer(refresh) })
      },
    },
    {
      name: 'logoutWallet',
      read: false,
      prepare: async () => {
        const { access } = await signInWithWallet()
        return call('logoutWallet', { headers: bearer(access) })
      },
    },
    {
      name: 'generateMnemonic',
      read: true,
      prepare: await documented('generateMnemonic'),
    },
    {
      name: 'createWallet',
      read: true,
      prepare: await documented('createWallet'),
    },
    {
      name: 'recoverWalletFromMnemonic',
      read: true,
      prepare: await documented('recoverWalletFromMnemonic'),
    },
    {
      name: 'recoverWalletFromKey',
      read: true,
      prepare: await documented('recoverWalletFromKey'),
    },
    {
      name: 'registerAccount',
      read: false,
      slow: true,
      prepare: () =>
        Promise.resolve(
          call('registerAccount', {
            body: { username: `costs_${randomUUID().slice(0, 8)}`, password: randomUUID() },
          }),
        ),
    },
    {
      name: 'loginAccount',
      read: false,
      slow: true,
      prepare: same('loginAccount', { body: credentials }),
    },
    {
      name: 'refreshAccountSession',
      read: false,
      slow: true,
      prepare: async () => {
        const { refresh } = await accountTokens()
        return call('refreshAccountSession', { headers: bearer(refresh) })
      },
    },
    {
      name: 'logoutAccount',
      read: false,
      slow: true,
      prepare: async () => {
        const { access } = await accountTokens()
        return call('logoutAccount', { headers: bearer(access) })
      },
    },
    {
      name: 'listSwapTokens',
      read: true,
      prepare: await documented('listSwapTokens'),
    },
    ...served.flatMap((dex) => networkRoutes(dex)),
    {
      name: 'attachWalletNetworks',
      read: false,
      prepare: same('attachWalletNetworks', { headers: readerHeaders, body: { networkIds } }),
    },
    {
      name: 'getWalletBalances',
      read: true,
      prepare: same('getWalletBalances', { headers: readerHeaders }),
    },
    {
      name: 'getApproval',
      read: true,
      // A wallet with no allowance: the dearer answer, the approval built and simulated.
      prepare: same('getApproval', {
        pathParameters: { network: firstServed.network },
        queryStringParameters: {
          token: firstServed.usdStablecoin,
          amount: '1000000',
          owner: reader.address,
        },
        headers: readerHeaders,
      }),
    },
    {
      name: 'listWatchlist',
      read: true,
      prepare: same('listWatchlist', { headers: readerHeaders }),
    },
    {
      name: 'addToWatchlist',
      read: false,
      // Not yet watched, so the add writes: the path a client's first tap takes.
      prepare: async () => {
        await unwatchProject(reader.address, project.id)
        return call('addToWatchlist', { pathParameters: projectPath, headers: readerHeaders })
      },
    },
    {
      name: 'removeFromWatchlist',
      read: false,
      prepare: async () => {
        await watchProject(reader.address, project.id)
        return call('removeFromWatchlist', { pathParameters: projectPath, headers: readerHeaders })
      },
    },
    {
      name: 'getProjectDetails',
      read: true,
      prepare: same('getProjectDetails', { pathParameters: projectPath, headers: accountHeaders }),
    },
    ...['getDailyPriceHistory', 'getMonthlyPriceHistory', 'getYearlyPriceHistory'].map((name) => ({
      name,
      read: true,
      prepare: same(name, { pathParameters: projectPath }),
    })),
    {
      name: 'listTrades',
      read: true,
      prepare: await documented('listTrades', { headers: readerHeaders }),
    },
    {
      name: 'getTradeByHash',
      read: true,
      prepare: same('getTradeByHash', { pathParameters: { hash }, headers: readerHeaders }),
    },
    {
      name: 'getTradeById',
      read: true,
      prepare: same('getTradeById', { pathParameters: { tradeId }, headers: readerHeaders }),
    },
    {
      // A new single-use ticket each time (DECISIONS §10.3): it writes.
      name: 'createWsTicket',
      read: false,
      prepare: same('createWsTicket', { headers: readerHeaders }),
    },
  ]
  return routes.map((route) => {
    const { event, freshEvent } = (
      route as { prepare: { event?: HttpEvent; freshEvent?: (this: void) => HttpEvent } }
    ).prepare
    return {
      ...route,
      routeKey: routeKeyOf(route.name),
      ...(event && { event }),
      ...(freshEvent && { freshEvent }),
    }
  })
}

/** The handlers of serverless.yml's HTTP functions by name, imported. */
async function declaredHandlers() {
  const handlers = new Map<string, Handler>()
  for (const fn of declaredFunctions()) {
    if (!fn.route) continue
    handlers.set(fn.name, (await declaredHandler(fn)) as Handler)
  }
  return handlers
}

/** A route's documented example request, as the event a client's request becomes. */
async function documentedRequest(name: string): Promise<RouteEvent> {
  const fn = declaredFunctions().find((declared) => declared.name === name)
  if (!fn) throw new Error(`serverless.yml declares no function ${name}`)
  const doc = await loadRouteDoc(fn.entry)
  if (!('example' in doc)) throw new Error(`${name} documents no JSON request`)
  const { params, query, body } = await exampleOf(doc)
  // Path and query values travel as text.
  const text = (values: Record<string, unknown> | undefined) =>
    values && Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)]))
  return {
    ...(params && { pathParameters: text(params) }),
    ...(query && { queryStringParameters: text(query) }),
    ...(body !== undefined && { body }),
  }
}
