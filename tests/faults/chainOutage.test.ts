import type { NetworkName } from '../../lib/networkNames'
import '../support/env'
import { randomBytes, randomUUID } from 'node:crypto'
import type { ScheduledEvent } from 'aws-lambda'
import { type Hash, type Hex, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { handler as attachWalletNetworks } from '../../functions/networks/attachWalletNetworks'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { handler as indexDepositsHandler } from '../../functions/schedules/indexDeposits'
import { handler as reconcileTradesHandler } from '../../functions/schedules/reconcileTrades'
import { handler as getTradeByHash } from '../../functions/trade/getTradeByHash'
import { handler as getTradeById } from '../../functions/trade/getTradeById'
import { handler as listTrades } from '../../functions/trades/listTrades'
import { chainOf, publicClient, RPC_TIMEOUT_MS } from '../../lib/chain/clients'
import { loadChainConfig } from '../../lib/config'
import { getTrade, recordTrade } from '../../lib/db/trade'
import { networkId } from '../../lib/db/network'
import { ChainUnavailable } from '../../lib/errors'
import { DEVNET_CHAIN_IDS, type DexDeployment, deployDex } from '../../lib/local/deployDex'
import { NATIVE_COIN } from '../../lib/constants'
import { deployment as sharedDeployment } from '../support/devnetAccounts'
import {
  countRpcAttempts,
  expectOutage,
  FAULT_BOUND_MS,
  faultLog,
  ownDevnetClient,
  type RestartableAnvil,
  type RpcAttempts,
  type RpcPost,
  startRestartableAnvil,
  timed,
  untilServed,
} from '../support/faultEngines'
import { type EnvelopeResponse, httpEvent, invoke } from '../support/httpEvent'
import { bearer } from '../support/marketFixtures'
import { createMockTrade } from '../support/tradeFixtures'
import { signedNonce, signInWithWallet } from '../support/walletSignIn'
import { networkRoute } from '../../lib/networkRoutes/networkRoutes'

const quoteAltchain = networkRoute('quote', 'altchain')
const quoteEthereum = networkRoute('quote', 'ethereum')
const swapTokensEthereum = networkRoute('swapTokens', 'ethereum')
const transferEthereum = networkRoute('transfer', 'ethereum')

// An ethereum devnet of this file's own (the shared one serves other files), stopped and
// restarted on its port with its state while the handlers stay loaded: chain routes answer 502
// once their request has had the configured attempts, and work again once it is back. The time
// is bounded by those attempts and the per-attempt timeout, so that is what is asserted: the
// requests counted at the service's side, and the transport's settings; the measured times only
// go to the fault log, since a loaded machine stretches them. With automine off it also holds a
// broadcast transaction unmined, or drops it, to show that such a trade stays pending. The table
// and the altchain devnet are the shared ones.

const scheduled = { 'detail-type': 'Scheduled Event', source: 'aws.events' } as ScheduledEvent
const log = faultLog('chainOutage')

let anvil: RestartableAnvil
let dex: DexDeployment
let client: ReturnType<typeof ownClient>
let rpc: RpcAttempts

function ownClient() {
  return ownDevnetClient(anvil.rpcUrl, chainOf(loadChainConfig('ethereum')))
}

beforeAll(async () => {
  anvil = await startRestartableAnvil({ chainId: DEVNET_CHAIN_IDS.ethereum })
  dex = await deployDex({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, network: 'ethereum' })
  // Before any handler reads its configuration: the modules build their clients on first use.
  Object.assign(process.env, {
    ETHEREUM_RPC_URL: dex.rpcUrl,
    ETHEREUM_ROUTER: dex.router,
    ETHEREUM_FACTORY: dex.factory,
    ETHEREUM_WRAPPED_NATIVE: dex.wrappedNative,
    ETHEREUM_USD_STABLECOIN: dex.usdStablecoin,
  })
  client = ownClient()
  rpc = countRpcAttempts(anvil.rpcUrl, publicClient('ethereum'))
}, 120_000)

afterAll(async () => {
  rpc?.stop()
  log.write()
  await anvil?.close()
})

interface Caller {
  privateKey: Hex
  address: `0x${string}`
  access: string
}

/** A wallet with 10 coins on our devnet, signed in (SIWE is verified on that node). */
async function caller(): Promise<Caller> {
  const privateKey = generatePrivateKey()
  const { address } = privateKeyToAccount(privateKey)
  await client.setBalance({ address, value: parseEther('10') })
  const { access } = await signInWithWallet(privateKey)
  return { privateKey, address, access }
}

const link = () => {
  const token = dex.tokens.find((candidate) => candidate.symbol === 'LINK')
  if (!token) throw new Error('no LINK on the devnet')
  return token
}

function quote(network: NetworkName) {
  const deployed = network === 'ethereum' ? dex : sharedDeployment('altchain')
  return invoke(
    network === 'ethereum' ? quoteEthereum : quoteAltchain,
    httpEvent({
      routeKey: `GET /api/v1/swap/quote/${network}`,
      queryStringParameters: {
        amount: '1',
        address0: NATIVE_COIN,
        decimals0: '18',
        address1: deployed.usdStablecoin,
        decimals1: '6',
      },
    }),
  )
}

function swap(who: Caller, idempotencyKey: string) {
  return invoke(
    swapTokensEthereum,
    httpEvent({
      route: 'swapTokensEthereum',
      pathParameters: { key: who.privateKey },
      headers: { ...bearer(who.access), 'idempotency-key': idempotencyKey },
      body: {
        amount: '0.5',
        address0: NATIVE_COIN,
        decimals0: 18,
        address1: link().address,
        decimals1: link().decimals,
      },
    }),
  )
}

function transfer(who: Caller, to: `0x${string}`, amount = '0.25') {
  return invoke(
    transferEthereum,
    httpEvent({
      route: 'transferEthereum',
      pathParameters: { key: who.privateKey },
      headers: bearer(who.access),
      body: { to, amount },
    }),
  )
}

function balances(who: Caller) {
  return invoke(
    getWalletBalances,
    httpEvent({ route: 'getWalletBalances', headers: bearer(who.access) }),
  )
}

function tradeById(who: Caller, tradeId: string) {
  return invoke(
    getTradeById,
    httpEvent({
      route: 'getTradeById',
      pathParameters: { tradeId },
      headers: bearer(who.access),
    }),
  )
}

function tradeByHash(who: Caller, hash: Hash) {
  return invoke(
    getTradeByHash,
    httpEvent({
      route: 'getTradeByHash',
      pathParameters: { hash },
      headers: bearer(who.access),
    }),
  )
}

function trades(who: Caller) {
  return invoke(listTrades, httpEvent({ route: 'listTrades', headers: bearer(who.access) }))
}

/** Signs a fresh wallet in: the nonce is a table write, the signature check an ethereum call. */
async function walletLogin() {
  const { address, signature, sourceIp } = await signedNonce()
  return () =>
    invoke(loginWallet, httpEvent({ route: 'loginWallet', body: { address, signature }, sourceIp }))
}

/** The ethereum transport's settings, as the service's client holds them (lib/chain/clients.ts). */
function transportSettings() {
  const { retryCount, retryDelay, timeout } = publicClient('ethereum').transport
  if (retryCount === undefined || retryDelay === undefined || timeout === undefined) {
    throw new Error('the ethereum transport has no retry settings')
  }
  return { attempts: 1 + retryCount, retryCount, retryDelay, timeout }
}

/** Runs `call`, timed for the log, with the requests it sent to our node (all of them: take). */
async function counted<Result>(call: () => Promise<Result>) {
  await rpc.take()
  const { result, ms } = await timed(call)
  return { result, ms, posts: await rpc.take() }
}

/**
 * The calls of one JSON-RPC request (a batch or a single call) each sent to the node exactly as
 * many times as the transport allows, and nothing else, each attempt ending as the fault makes it
 * end (`ECONNREFUSED` from a stopped node; `ECONNRESET` from one that hangs: unanswered, the
 * transport gave it up at its timeout): the try and its retries, then the service gave up. That
 * bounds the answer. viem retries call by call, each after its own pause, and the transport
 * batches what is asked in one tick: on a busy machine the pauses of one batch's calls can end in
 * different ticks, so a retry may leave as more than one request. The calls and their counts are
 * what is checked.
 */
function expectConfiguredAttempts(posts: RpcPost[], outcome: 'ECONNREFUSED' | 'ECONNRESET') {
  const [first] = posts
  expect(first?.calls ?? []).not.toEqual([])
  const eachAttempt = Array.from({ length: transportSettings().attempts }, () => first?.calls ?? [])
  expect(posts.flatMap((post) => post.calls).sort()).toEqual(eachAttempt.flat().sort())
  expect(posts.map((post) => post.outcome)).toEqual(posts.map(() => outcome))
}

function expectChainUnavailable(response: EnvelopeResponse, posts: RpcPost[]) {
  expectOutage(response, {
    code: 502,
    message: 'the ethereum node did not answer; try again shortly',
  })
  expectConfiguredAttempts(posts, 'ECONNREFUSED')
}

function tradeStatus(result: unknown) {
  return (result as { status: string; gasUsed: number; blockNumber: number }).status
}

describe('an ethereum node that stops mid-run and comes back', () => {
  let who: Caller
  let pendingTradeId: string
  const idempotencyKey = randomUUID()
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  let pendingLogin: () => Promise<EnvelopeResponse>
  let chainClient: ReturnType<typeof publicClient>

  beforeAll(async () => {
    who = await caller()
    const attached = await invoke(
      attachWalletNetworks,
      httpEvent({
        route: 'attachWalletNetworks',
        headers: bearer(who.access),
        body: { networkIds: [networkId('ethereum'), networkId('altchain')] },
      }),
    )
    expect(attached.status).toBe(200)
    // A trade whose transaction the node never saw: a lookup asks the node for its receipt.
    const trade = createMockTrade({ hash: toHex(randomBytes(32)), wallet: who.address })
    pendingTradeId = (await recordTrade(trade)).id
  })

  it('serves the chain routes while it is up', async () => {
    expect((await quote('ethereum')).status).toBe(200)
    expect((await balances(who)).status).toBe(200)
  })

  it('gives up within 3 s by configuration: attempts × the per-attempt timeout, and the pauses', () => {
    const { attempts, retryCount, retryDelay, timeout } = transportSettings()
    // viem pauses 2^n × retryDelay before retry n + 1.
    const pauses = Array.from({ length: retryCount }, (_, n) => 2 ** n * retryDelay)

    expect(timeout).toBe(RPC_TIMEOUT_MS)
    expect(attempts).toBeGreaterThan(1)
    expect(attempts * timeout + pauses.reduce((sum, pause) => sum + pause, 0)).toBeLessThan(
      FAULT_BOUND_MS,
    )
  })

  it('answers every ethereum route with the 502 envelope once it is stopped, after the configured attempts', async () => {
    // Kept for the next test before anything here can fail, so that it fails on its own account.
    pendingLogin = await walletLogin()
    chainClient = publicClient('ethereum')
    await anvil.stop()

    const calls: Array<[string, () => Promise<EnvelopeResponse>]> = [
      ['GET /v1/swap/quote/ethereum', () => quote('ethereum')],
      ['GET /v1/networks/wallet/balance', () => balances(who)],
      ['POST /v1/swap/tokens/ethereum/{key}', () => swap(who, idempotencyKey)],
      ['POST /v1/transfer/tokens/ethereum/{key}', () => transfer(who, recipient)],
    ]
    for (const [name, call] of calls) {
      const { result, ms, posts } = await counted(call)

      log.record({ fault: 'ethereum node stopped', what: name, status: result.status, ms })
      expectChainUnavailable(result, posts)
    }
  })

  it('keeps answering what needs no ethereum call', async () => {
    // viem checks an EOA's signature locally; only a contract wallet needs the node.
    const signIn = await counted(pendingLogin)
    log.record({
      fault: 'ethereum node stopped',
      what: 'POST /v1/auth/login (EOA)',
      status: signIn.result.status,
      ms: signIn.ms,
    })
    // The status only: a failure must not print the session's tokens.
    expect(signIn.result.status).toBe(200)
    expect(signIn.posts).toEqual([])
    const altchain = await counted(() => quote('altchain'))
    const lookup = await counted(() => tradeById(who, pendingTradeId))

    log.record({
      fault: 'ethereum node stopped',
      what: 'GET /v1/swap/quote/altchain',
      status: altchain.result.status,
      ms: altchain.ms,
    })
    log.record({
      fault: 'ethereum node stopped',
      what: 'GET /v1/trade/id/{tradeId} (pending)',
      status: lookup.result.status,
      ms: lookup.ms,
    })
    expect(altchain.result.status).toBe(200)
    expect(altchain.posts).toEqual([])
    // The lookup cannot settle the trade, so it answers it as stored (pending), once its receipt
    // request has had its attempts.
    expect(lookup.result.status).toBe(200)
    expect(tradeStatus(lookup.result.body.result)).toBe('pending')
    expectConfiguredAttempts(lookup.posts, 'ECONNREFUSED')
  })

  it('fails the reconcile run after the configured attempts, leaving the trade pending', async () => {
    const { result, ms, posts } = await counted(() =>
      reconcileTradesHandler(scheduled).then(
        () => 'resolved',
        (error: unknown) => error,
      ),
    )

    log.record({
      fault: 'ethereum node stopped',
      what: 'reconcileTrades schedule',
      status: result instanceof Error ? result.name : String(result),
      ms,
    })
    // Not viem's error: its message quotes the RPC URL, and a provider's URL can hold a key.
    expect(result).toBeInstanceOf(ChainUnavailable)
    expect(String((result as Error).message)).not.toContain(anvil.rpcUrl)
    expectConfiguredAttempts(posts, 'ECONNREFUSED')
    expect((await getTrade(who.address, pendingTradeId))?.status).toBe('pending')
  })

  it('fails the deposit indexer run after the configured attempts', async () => {
    const { result, ms, posts } = await counted(() =>
      indexDepositsHandler(scheduled).then(
        () => 'resolved',
        (error: unknown) => error,
      ),
    )

    log.record({
      fault: 'ethereum node stopped',
      what: 'indexDeposits schedule',
      status: result instanceof Error ? result.name : String(result),
      ms,
    })
    expect(result).toBeInstanceOf(ChainUnavailable)
    expect(String((result as Error).message)).not.toContain(anvil.rpcUrl)
    expectConfiguredAttempts(posts, 'ECONNREFUSED')
  })

  it('recorded no trade for the refused swap and transfer', async () => {
    const listed = await trades(who)

    // Only the trade this file recorded itself.
    expect(listed.body.result).toMatchObject({ count: 1 })
  })

  it('serves again after a restart on the same port with its state', async () => {
    const restartedAt = performance.now()
    await anvil.start()
    const portBackMs = Math.round(performance.now() - restartedAt)

    const firstServedMs = await untilServed(() => quote('ethereum'), 502)

    log.record({
      fault: 'ethereum node restarted',
      what: 'node answering, state loaded',
      status: 'up',
      ms: portBackMs,
    })
    log.record({
      fault: 'ethereum node restarted',
      what: 'first quote 200 after it answered',
      status: 200,
      ms: firstServedMs,
    })
    expect(publicClient('ethereum')).toBe(chainClient)
    expect(await client.getTransactionCount({ address: who.address, blockTag: 'pending' })).toBe(0)
    const calls: Array<[string, () => Promise<EnvelopeResponse>]> = [
      ['GET /v1/networks/wallet/balance', () => balances(who)],
      // The same Idempotency-Key: the refused attempt freed it, so this one is sent.
      ['POST /v1/swap/tokens/ethereum/{key}', () => swap(who, idempotencyKey)],
      ['POST /v1/transfer/tokens/ethereum/{key}', () => transfer(who, recipient)],
    ]
    const sent: Hex[] = []
    for (const [name, call] of calls) {
      const { result, ms } = await timed(call)
      log.record({ fault: 'ethereum node back', what: name, status: result.status, ms })
      expect({ name, status: result.status }).toEqual({ name, status: 200 })
      const txId = (result.body.result as { txId?: Hex } | undefined)?.txId
      if (txId) sent.push(txId)
    }
    // A 200 means broadcast, not mined: wait for both before reading the chain.
    await Promise.all(sent.map((hash) => client.waitForTransactionReceipt({ hash })))
    expect(sent).toHaveLength(2)
    expect(await client.getTransactionCount({ address: who.address, blockTag: 'pending' })).toBe(2)
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
  })
})

describe('an ethereum node that hangs (SIGSTOP) and resumes', () => {
  it('answers 502 once each configured attempt has timed out, then serves again', async () => {
    anvil.freeze()
    let hung: Awaited<ReturnType<typeof counted<EnvelopeResponse>>>
    try {
      hung = await counted(() => quote('ethereum'))
    } finally {
      anvil.thaw()
    }

    log.record({
      fault: 'ethereum node frozen',
      what: 'GET /v1/swap/quote/ethereum',
      status: hung.result.status,
      ms: hung.ms,
    })
    // A silent node costs the RPC timeout on every attempt (lib/chain/clients.ts), where a
    // stopped one refuses at once: no more attempts than configured, each one given up unanswered.
    expect(hung.result).toMatchObject({ status: 502, body: { ok: false, error: { code: 502 } } })
    expectConfiguredAttempts(hung.posts, 'ECONNRESET')
    expect((await quote('ethereum')).status).toBe(200)
  }, 30_000)
})

describe('a broadcast whose receipt never comes', () => {
  let who: Caller

  beforeAll(async () => {
    who = await caller()
  })

  afterAll(async () => {
    await client.setAutomine(true)
  })

  async function sendUnmined(): Promise<{ hash: Hash; tradeId: string }> {
    const response = await transfer(who, privateKeyToAccount(generatePrivateKey()).address)
    expect(response.status).toBe(200)
    const { txId: hash } = response.body.result as { txId: Hash }
    const found = await tradeByHash(who, hash)
    return { hash, tradeId: (found.body.result as { id: string }).id }
  }

  async function expectPendingEverywhere(hash: Hash, tradeId: string) {
    await reconcileTradesHandler(scheduled)
    const [byId, byHash, listed] = await Promise.all([
      tradeById(who, tradeId),
      tradeByHash(who, hash),
      trades(who),
    ])
    expect(byId.body.result).toMatchObject({ status: 'pending', gasUsed: 0, blockNumber: 0 })
    expect(byHash.body.result).toMatchObject({ status: 'pending' })
    const listedTrade = (listed.body.result as { trades: Array<{ id: string }> }).trades.find(
      (trade) => trade.id === tradeId,
    )
    expect(listedTrade).toMatchObject({ status: 'pending' })
    expect((await getTrade(who.address, tradeId))?.status).toBe('pending')
  }

  it('stays pending while the transaction waits unmined, through reconcile runs and lookups', async () => {
    await client.setAutomine(false)
    const { hash, tradeId } = await sendUnmined()

    await expectPendingEverywhere(hash, tradeId)
    await expectPendingEverywhere(hash, tradeId)
    expect(await client.getTransaction({ hash })).toMatchObject({ blockNumber: null })
  })

  it('stays pending when the node drops the transaction and mines on without it', async () => {
    const { hash, tradeId } = await sendUnmined()

    await client.dropTransaction({ hash })
    await client.mine({ blocks: 3 })

    await expectPendingEverywhere(hash, tradeId)
    await expect(client.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/)
  })

  it('stays pending when the node restarts without its pool, and settles only a mined one', async () => {
    const lost = await sendUnmined()
    await anvil.stop()
    await anvil.start()
    // The restarted node mines at once (automine is on by default) but lost the pool.
    await client.mine({ blocks: 1 })

    await expectPendingEverywhere(lost.hash, lost.tradeId)

    // The control: a transaction that does get mined moves, from its receipt only.
    const mined = await transfer(who, privateKeyToAccount(generatePrivateKey()).address)
    const { txId } = mined.body.result as { txId: Hash }
    const receipt = await client.waitForTransactionReceipt({ hash: txId })
    await reconcileTradesHandler(scheduled)
    expect((await tradeByHash(who, txId)).body.result).toMatchObject({
      status: 'successful',
      blockNumber: Number(receipt.blockNumber),
    })
    expect((await getTrade(who.address, lost.tradeId))?.status).toBe('pending')
  })
})
