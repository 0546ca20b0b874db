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
import { handler as loginAccountHandler } from '../../functions/account/loginAccount'
import { handler as logoutAccount } from '../../functions/account/logoutAccount'
import { handler as refreshAccountSession } from '../../functions/account/refreshAccountSession'
import { handler as registerAccountHandler } from '../../functions/account/registerAccount'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as prepareSwapNativeAltchain } from '../../functions/clientSigning/prepareSwapNativeAltchain'
import { handler as prepareSwapTokensAltchain } from '../../functions/clientSigning/prepareSwapTokensAltchain'
import { handler as prepareSwapTokensEthereum } from '../../functions/clientSigning/prepareSwapTokensEthereum'
import { handler as prepareTransferAltchain } from '../../functions/clientSigning/prepareTransferAltchain'
import { handler as prepareTransferEthereum } from '../../functions/clientSigning/prepareTransferEthereum'
import { handler as submitAltchain } from '../../functions/clientSigning/submitAltchain'
import { handler as submitEthereum } from '../../functions/clientSigning/submitEthereum'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { handler as logoutWallet } from '../../functions/auth/logoutWallet'
import { handler as refreshWalletSession } from '../../functions/auth/refreshWalletSession'
import { handler as attachWalletNetworks } from '../../functions/networks/attachWalletNetworks'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { handler as listNetworks } from '../../functions/networks/listNetworks'
import { handler as getDailyPriceHistory } from '../../functions/price/getDailyPriceHistory'
import { handler as getMonthlyPriceHistory } from '../../functions/price/getMonthlyPriceHistory'
import { handler as getYearlyPriceHistory } from '../../functions/price/getYearlyPriceHistory'
import { handler as getProjectDetails } from '../../functions/project/getProjectDetails'
import { handler as listTokens } from '../../functions/swap/listSwapTokens'
import { handler as quoteAltchain } from '../../functions/swap/quoteAltchain'
import { handler as quoteEthereum } from '../../functions/swap/quoteEthereum'
import { handler as swapNativeAltchain } from '../../functions/swap/swapNativeAltchain'
import { handler as swapTokensAltchain } from '../../functions/swap/swapTokensAltchain'
import { handler as swapTokensEthereum } from '../../functions/swap/swapTokensEthereum'
import { handler as getTradeByHash } from '../../functions/trade/getTradeByHash'
import { handler as getTradeById } from '../../functions/trade/getTradeById'
import { handler as listTrades } from '../../functions/trades/listTrades'
import { handler as transferAltchain } from '../../functions/transfer/transferAltchain'
import { handler as transferEthereum } from '../../functions/transfer/transferEthereum'
import { handler as createWallet } from '../../functions/wallet/createWallet'
import { handler as generateMnemonic } from '../../functions/wallet/generateMnemonic'
import { handler as recoverWalletFromKey } from '../../functions/wallet/recoverWalletFromKey'
import { handler as recoverWalletFromMnemonic } from '../../functions/wallet/recoverWalletFromMnemonic'
import { handler as addToWatchlist } from '../../functions/watchlist/addToWatchlist'
import { handler as listWatchlist } from '../../functions/watchlist/listWatchlist'
import { handler as removeFromWatchlist } from '../../functions/watchlist/removeFromWatchlist'
import type { NetworkName } from '../../lib/networkNames'
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
import { type EnvelopeResponse, httpEvent, type HttpEventOverrides, invoke } from './httpEvent'
import { type PreparedTransaction, signAll } from './signPrepared'
import { signedNonce, signInWithWallet } from './walletSignIn'

// One valid request for each of the 40 /api/v1 routes, shared by the counts test
// (tests/functions/requestCosts.test.ts) and the bench (tests/bench/requests.ts). No vitest here:
// the bench runs it outside vitest, importing it after its own stack has set process.env.

type Handler = Parameters<typeof invoke>[0]

export interface RouteRequest {
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

const TEST_PHRASE = 'test test test test test test test test test test test junk'
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
 * Sets up what the routes need (a signed-in wallet with a trade, a watch and both networks
 * attached, an account, a funded trading wallet per network) and returns one valid request per
 * route, in the order of serverless.yml.
 */
export async function routeRequests(
  deployments: Record<NetworkName, DexDeployment>,
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
  const [ethereumTrader, altchainTrader] = await Promise.all([
    tradingWallet(deployments.ethereum),
    tradingWallet(deployments.altchain),
  ])
  const credentials = { username: `costs_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await invoke(
    registerAccountHandler,
    httpEvent({ routeKey: 'POST /api/v1/account/register', body: credentials }),
  )

  const call = (handler: Handler, event: HttpEventOverrides) => () =>
    invoke(handler, httpEvent(event))
  /** The same request every time: reads, and writes that can repeat. */
  const same = (handler: Handler, event: HttpEventOverrides) =>
    Object.assign(
      (): Promise<() => Promise<EnvelopeResponse>> => Promise.resolve(call(handler, event)),
      { event: httpEvent(event) },
    )
  const walletSignature = async () => {
    const { address, signature } = await signedNonce()
    return { address, signature }
  }
  const accountTokens = async () => {
    const login = await invoke(
      loginAccountHandler,
      httpEvent({ routeKey: 'POST /api/v1/account/login', body: credentials }),
    )
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
  const signed = (
    handler: Handler,
    routeKey: string,
    trader: { privateKey: Hex; access: string },
    body: unknown,
  ) => {
    const fresh = (): HttpEventOverrides => ({
      routeKey,
      pathParameters: { key: trader.privateKey },
      headers: { ...bearer(trader.access), 'idempotency-key': randomUUID() },
      body,
    })
    return Object.assign(() => Promise.resolve(call(handler, fresh())), {
      freshEvent: () => httpEvent(fresh()),
    })
  }
  /** A prepare route's request, as the trader's wallet app sends it. */
  const preparing =
    (handler: Handler, routeKey: string, trader: { access: string }, body: unknown) => () =>
      Promise.resolve(call(handler, { routeKey, headers: bearer(trader.access), body }))
  /** Prepared (through the real prepare route) and signed here; the submit alone is measured. */
  const submitting =
    (
      prepareHandler: Handler,
      prepareRouteKey: string,
      submitHandler: Handler,
      submitRouteKey: string,
      trader: { privateKey: Hex; access: string },
      body: unknown,
    ) =>
    async () => {
      const prepared = await preparing(prepareHandler, prepareRouteKey, trader, body)()
      const { result } = (await prepared()).body
      const { transactions } = result as { transactions: PreparedTransaction[] }
      const signed = await signAll(privateKeyToAccount(trader.privateKey), transactions)
      return call(submitHandler, {
        routeKey: submitRouteKey,
        headers: { ...bearer(trader.access), 'idempotency-key': randomUUID() },
        body: { transactions: signed },
      })
    }
  const quote = (dex: DexDeployment, from: string, to: string) => {
    const body = swapBody(dex, tokenOf(dex, from), tokenOf(dex, to), '25')
    return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)]))
  }
  const eth = deployments.ethereum
  const alt = deployments.altchain
  const readerHeaders = bearer(reader.access)
  const projectPath = { projectId: project.id }

  const routes: RouteRequest[] = [
    {
      routeKey: 'GET /api/v1/networks',
      read: true,
      prepare: same(listNetworks, { routeKey: 'GET /api/v1/networks' }),
    },
    {
      routeKey: 'GET /api/v1/auth/nonce/{address}',
      read: false, // issues a nonce
      // A fresh address each time: an address is issued at most 20 nonces a window (issue 22).
      prepare: () =>
        Promise.resolve(
          call(getNonce, {
            routeKey: 'GET /api/v1/auth/nonce/{address}',
            pathParameters: { address: randomAddress() },
          }),
        ),
    },
    {
      routeKey: 'POST /api/v1/auth/login',
      read: false,
      prepare: async () =>
        call(loginWallet, { routeKey: 'POST /api/v1/auth/login', body: await walletSignature() }),
    },
    {
      routeKey: 'GET /api/v1/auth/refresh',
      read: false,
      prepare: async () => {
        const { refresh } = await signInWithWallet()
        return call(refreshWalletSession, {
          routeKey: 'GET /api/v1/auth/refresh',
          headers: bearer(refresh),
        })
      },
    },
    {
      routeKey: 'DELETE /api/v1/auth/logout',
      read: false,
      prepare: async () => {
        const { access } = await signInWithWallet()
        return call(logoutWallet, {
          routeKey: 'DELETE /api/v1/auth/logout',
          headers: bearer(access),
        })
      },
    },
    {
      routeKey: 'GET /api/v1/wallet/mnemonic',
      read: true,
      prepare: same(generateMnemonic, { routeKey: 'GET /api/v1/wallet/mnemonic' }),
    },
    {
      routeKey: 'POST /api/v1/wallet/create',
      read: true,
      prepare: same(createWallet, {
        routeKey: 'POST /api/v1/wallet/create',
        body: { mnemonic: TEST_PHRASE, index: 1 },
      }),
    },
    {
      routeKey: 'POST /api/v1/wallet/recover/mnemonic',
      read: true,
      prepare: same(recoverWalletFromMnemonic, {
        routeKey: 'POST /api/v1/wallet/recover/mnemonic',
        body: { mnemonic: TEST_PHRASE, index: 0 },
      }),
    },
    {
      routeKey: 'POST /api/v1/wallet/recover/key',
      read: true,
      prepare: same(recoverWalletFromKey, {
        routeKey: 'POST /api/v1/wallet/recover/key',
        body: { privateKey: generatePrivateKey() },
      }),
    },
    {
      routeKey: 'POST /api/v1/account/register',
      read: false,
      slow: true,
      prepare: () =>
        Promise.resolve(
          call(registerAccountHandler, {
            routeKey: 'POST /api/v1/account/register',
            body: { username: `costs_${randomUUID().slice(0, 8)}`, password: randomUUID() },
          }),
        ),
    },
    {
      routeKey: 'POST /api/v1/account/login',
      read: false,
      slow: true,
      prepare: same(loginAccountHandler, {
        routeKey: 'POST /api/v1/account/login',
        body: credentials,
      }),
    },
    {
      routeKey: 'GET /api/v1/account/refresh',
      read: false,
      slow: true,
      prepare: async () => {
        const { refresh } = await accountTokens()
        return call(refreshAccountSession, {
          routeKey: 'GET /api/v1/account/refresh',
          headers: bearer(refresh),
        })
      },
    },
    {
      routeKey: 'DELETE /api/v1/account/logout',
      read: false,
      slow: true,
      prepare: async () => {
        const { access } = await accountTokens()
        return call(logoutAccount, {
          routeKey: 'DELETE /api/v1/account/logout',
          headers: bearer(access),
        })
      },
    },
    {
      routeKey: 'GET /api/v1/swap/tokens',
      read: true,
      prepare: same(listTokens, { routeKey: 'GET /api/v1/swap/tokens' }),
    },
    {
      routeKey: 'GET /api/v1/swap/quote/altchain',
      read: true,
      prepare: same(quoteAltchain, {
        routeKey: 'GET /api/v1/swap/quote/altchain',
        queryStringParameters: quote(alt, 'CAKE', 'BTCB'),
      }),
    },
    {
      routeKey: 'GET /api/v1/swap/quote/ethereum',
      read: true,
      prepare: same(quoteEthereum, {
        routeKey: 'GET /api/v1/swap/quote/ethereum',
        queryStringParameters: quote(eth, 'LINK', 'WBTC'),
      }),
    },
    {
      routeKey: 'POST /api/v1/swap/native/altchain/{key}',
      read: false,
      prepare: signed(
        swapNativeAltchain,
        'POST /api/v1/swap/native/altchain/{key}',
        altchainTrader,
        swapBody(alt, NATIVE_COIN, alt.usdStablecoin, '0.01'),
      ),
    },
    {
      routeKey: 'POST /api/v1/swap/tokens/altchain/{key}',
      read: false,
      prepare: signed(
        swapTokensAltchain,
        'POST /api/v1/swap/tokens/altchain/{key}',
        altchainTrader,
        swapBody(alt, alt.usdStablecoin, tokenOf(alt, 'CAKE'), '1'),
      ),
    },
    {
      routeKey: 'POST /api/v1/swap/tokens/ethereum/{key}',
      read: false,
      prepare: signed(
        swapTokensEthereum,
        'POST /api/v1/swap/tokens/ethereum/{key}',
        ethereumTrader,
        swapBody(eth, eth.usdStablecoin, tokenOf(eth, 'LINK'), '1'),
      ),
    },
    {
      routeKey: 'POST /api/v1/transfer/tokens/altchain/{key}',
      read: false,
      prepare: signed(
        transferAltchain,
        'POST /api/v1/transfer/tokens/altchain/{key}',
        altchainTrader,
        { to: randomAddress(), amount: '0.5', token: alt.usdStablecoin, decimals: 6 },
      ),
    },
    {
      routeKey: 'POST /api/v1/transfer/tokens/ethereum/{key}',
      read: false,
      prepare: signed(
        transferEthereum,
        'POST /api/v1/transfer/tokens/ethereum/{key}',
        ethereumTrader,
        { to: randomAddress(), amount: '0.5', token: eth.usdStablecoin, decimals: 6 },
      ),
    },
    {
      routeKey: 'POST /api/v1/prepare/swap/tokens/ethereum',
      read: true, // builds transactions; sends and records nothing
      prepare: preparing(
        prepareSwapTokensEthereum,
        'POST /api/v1/prepare/swap/tokens/ethereum',
        ethereumTrader,
        swapBody(eth, eth.usdStablecoin, tokenOf(eth, 'LINK'), '1'),
      ),
    },
    {
      routeKey: 'POST /api/v1/prepare/swap/tokens/altchain',
      read: true, // builds transactions; sends and records nothing
      prepare: preparing(
        prepareSwapTokensAltchain,
        'POST /api/v1/prepare/swap/tokens/altchain',
        altchainTrader,
        swapBody(alt, alt.usdStablecoin, tokenOf(alt, 'CAKE'), '1'),
      ),
    },
    {
      routeKey: 'POST /api/v1/prepare/swap/native/altchain',
      read: true, // builds transactions; sends and records nothing
      prepare: preparing(
        prepareSwapNativeAltchain,
        'POST /api/v1/prepare/swap/native/altchain',
        altchainTrader,
        swapBody(alt, NATIVE_COIN, alt.usdStablecoin, '0.01'),
      ),
    },
    {
      routeKey: 'POST /api/v1/prepare/transfer/tokens/ethereum',
      read: true, // builds transactions; sends and records nothing
      prepare: preparing(
        prepareTransferEthereum,
        'POST /api/v1/prepare/transfer/tokens/ethereum',
        ethereumTrader,
        { to: randomAddress(), amount: '0.5', token: eth.usdStablecoin, decimals: 6 },
      ),
    },
    {
      routeKey: 'POST /api/v1/prepare/transfer/tokens/altchain',
      read: true, // builds transactions; sends and records nothing
      prepare: preparing(
        prepareTransferAltchain,
        'POST /api/v1/prepare/transfer/tokens/altchain',
        altchainTrader,
        { to: randomAddress(), amount: '0.5', token: alt.usdStablecoin, decimals: 6 },
      ),
    },
    {
      routeKey: 'POST /api/v1/submit/ethereum',
      read: false,
      prepare: submitting(
        prepareSwapTokensEthereum,
        'POST /api/v1/prepare/swap/tokens/ethereum',
        submitEthereum,
        'POST /api/v1/submit/ethereum',
        ethereumTrader,
        swapBody(eth, eth.usdStablecoin, tokenOf(eth, 'LINK'), '1'),
      ),
    },
    {
      routeKey: 'POST /api/v1/submit/altchain',
      read: false,
      prepare: submitting(
        prepareSwapTokensAltchain,
        'POST /api/v1/prepare/swap/tokens/altchain',
        submitAltchain,
        'POST /api/v1/submit/altchain',
        altchainTrader,
        swapBody(alt, alt.usdStablecoin, tokenOf(alt, 'CAKE'), '1'),
      ),
    },
    {
      routeKey: 'POST /api/v1/networks/wallet',
      read: false,
      prepare: same(attachWalletNetworks, {
        routeKey: 'POST /api/v1/networks/wallet',
        headers: readerHeaders,
        body: { networkIds },
      }),
    },
    {
      routeKey: 'GET /api/v1/networks/wallet/balance',
      read: true,
      prepare: same(getWalletBalances, {
        routeKey: 'GET /api/v1/networks/wallet/balance',
        headers: readerHeaders,
      }),
    },
    {
      routeKey: 'GET /api/v1/watchlist/projects',
      read: true,
      prepare: same(listWatchlist, {
        routeKey: 'GET /api/v1/watchlist/projects',
        headers: readerHeaders,
      }),
    },
    {
      routeKey: 'POST /api/v1/watchlist/{projectId}',
      read: false,
      // Not yet watched, so the add writes: the path a client's first tap takes.
      prepare: async () => {
        await unwatchProject(reader.address, project.id)
        return call(addToWatchlist, {
          routeKey: 'POST /api/v1/watchlist/{projectId}',
          pathParameters: projectPath,
          headers: readerHeaders,
        })
      },
    },
    {
      routeKey: 'DELETE /api/v1/watchlist/{projectId}',
      read: false,
      prepare: async () => {
        await watchProject(reader.address, project.id)
        return call(removeFromWatchlist, {
          routeKey: 'DELETE /api/v1/watchlist/{projectId}',
          pathParameters: projectPath,
          headers: readerHeaders,
        })
      },
    },
    {
      routeKey: 'GET /api/v1/project/{projectId}',
      read: true,
      prepare: same(getProjectDetails, {
        routeKey: 'GET /api/v1/project/{projectId}',
        pathParameters: projectPath,
        headers: accountHeaders,
      }),
    },
    ...(
      [
        ['daily', getDailyPriceHistory],
        ['monthly', getMonthlyPriceHistory],
        ['yearly', getYearlyPriceHistory],
      ] as const
    ).map(([grain, handler]) => ({
      routeKey: `GET /api/v1/price/history/${grain}/{projectId}`,
      read: true,
      prepare: same(handler, {
        routeKey: `GET /api/v1/price/history/${grain}/{projectId}`,
        pathParameters: projectPath,
      }),
    })),
    {
      routeKey: 'GET /api/v1/trades',
      read: true,
      prepare: same(listTrades, { routeKey: 'GET /api/v1/trades', headers: readerHeaders }),
    },
    {
      routeKey: 'GET /api/v1/trade/hash/{hash}',
      read: true,
      prepare: same(getTradeByHash, {
        routeKey: 'GET /api/v1/trade/hash/{hash}',
        pathParameters: { hash },
        headers: readerHeaders,
      }),
    },
    {
      routeKey: 'GET /api/v1/trade/id/{tradeId}',
      read: true,
      prepare: same(getTradeById, {
        routeKey: 'GET /api/v1/trade/id/{tradeId}',
        pathParameters: { tradeId },
        headers: readerHeaders,
      }),
    },
  ]
  return routes.map((route) => {
    const { event, freshEvent } = (
      route as { prepare: { event?: HttpEvent; freshEvent?: (this: void) => HttpEvent } }
    ).prepare
    return { ...route, ...(event && { event }), ...(freshEvent && { freshEvent }) }
  })
}
