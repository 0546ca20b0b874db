import '../support/env'
import { randomUUID } from 'node:crypto'
import { createTestClient, type Hex, http, parseEther, publicActions, walletActions } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainOf } from '../../lib/chain/clients'
import { loadChainConfig } from '../../lib/config'
import { getTrade, listTrades, recordTrade } from '../../lib/db/trade'
import { markWalletKnown } from '../../lib/db/wallet'
import { DEVNET_CHAIN_IDS, deployDex } from '../../lib/local/deployDex'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { reconcileTrades } from '../../lib/trades/reconcileTrades'
import { createTable } from '../../lib/local/localStack'
import { type RestartableAnvil, startRestartableAnvil } from '../support/faultEngines'
import { createMockTrade } from '../support/tradeFixtures'

// DECISIONS §7.2 on a devnet of this file's own, reorganised with anvil_rollback (the shared
// devnets serve other files), and a table of its own (the deposit cursor of `ethereum` is
// shared otherwise). A confirmation depth of 2: a block counts once two more are on top.

const CONFIRMATIONS = 2
let anvil: RestartableAnvil
let client: ReturnType<typeof devnetClient>

function devnetClient() {
  return createTestClient({
    mode: 'anvil',
    chain: chainOf(loadChainConfig('ethereum')),
    transport: http(anvil.rpcUrl, { retryCount: 0 }),
    pollingInterval: 50,
  })
    .extend(publicActions)
    .extend(walletActions)
}

beforeAll(async () => {
  anvil = await startRestartableAnvil({ chainId: DEVNET_CHAIN_IDS.ethereum })
  const dex = await deployDex({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, network: 'ethereum' })
  const table = `reorgs-${randomUUID()}`
  await createTable(String(process.env.DYNAMODB_ENDPOINT), table)
  // Before any module reads its configuration: settings are read once, on first use.
  Object.assign(process.env, {
    TABLE_NAME: table,
    ETHEREUM_RPC_URL: dex.rpcUrl,
    ETHEREUM_ROUTER: dex.router,
    ETHEREUM_FACTORY: dex.factory,
    ETHEREUM_WRAPPED_NATIVE: dex.wrappedNative,
    ETHEREUM_USD_STABLECOIN: dex.usdStablecoin,
    ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
  })
  client = devnetClient()
}, 120_000)

afterAll(async () => {
  await anvil?.close()
})

const index = () => indexDeposits({ networks: ['ethereum'] })

/** A signed transfer of 1 coin from a funded account to `to`, not yet sent. */
async function signedTransfer(to: `0x${string}`): Promise<Hex> {
  const sender = privateKeyToAccount(generatePrivateKey())
  await client.setBalance({ address: sender.address, value: parseEther('10') })
  return client.signTransaction({
    account: sender,
    chain: client.chain,
    to,
    value: parseEther('1'),
    gas: 21_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 10n ** 9n,
    nonce: 0,
  })
}

async function mined(serializedTransaction: Hex) {
  const hash = await client.sendRawTransaction({ serializedTransaction })
  return client.waitForTransactionReceipt({ hash })
}

async function depositsOf(wallet: `0x${string}`) {
  const { trades } = await listTrades({ wallet, limit: 100, offset: 0, direction: 'DESC' })
  return trades.filter((trade) => trade.type === 'deposit')
}

describe('the deposit indexer across a reorganisation', () => {
  it('records only confirmed deposits, removes one whose block was orphaned, and records its re-inclusion once', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    await markWalletKnown(wallet)
    await index()
    const transfer = await signedTransfer(wallet)
    const receipt = await mined(transfer)

    await index()
    expect(await depositsOf(wallet)).toHaveLength(0)

    await client.mine({ blocks: CONFIRMATIONS })
    await index()
    expect(await depositsOf(wallet)).toEqual([
      expect.objectContaining({ hash: receipt.transactionHash, status: 'successful' }),
    ])

    // The deposit's block and the two on top of it are orphaned; the new chain is longer.
    await client.request({ method: 'anvil_rollback', params: [CONFIRMATIONS + 1] } as never)
    await client.mine({ blocks: CONFIRMATIONS + 2 })
    const [run] = await index()

    expect(run?.removed).toBe(1)
    expect(await depositsOf(wallet)).toHaveLength(0)

    const again = await mined(transfer)
    await client.mine({ blocks: CONFIRMATIONS })
    await index()
    await index()

    expect(again.transactionHash).toBe(receipt.transactionHash)
    expect(again.blockHash).not.toBe(receipt.blockHash)
    expect(await depositsOf(wallet)).toEqual([
      expect.objectContaining({ hash: receipt.transactionHash, blockNumber: again.blockNumber }),
    ])
  })
})

describe('the reconciler across a reorganisation', () => {
  it('never settles a trade before its confirmations, so an orphaned one stays pending', async () => {
    const transfer = await signedTransfer(privateKeyToAccount(generatePrivateKey()).address)
    const receipt = await mined(transfer)
    const trade = createMockTrade({ hash: receipt.transactionHash, network: 'ethereum' })
    const { id } = await recordTrade(trade)
    const statusOf = async () => (await getTrade(trade.wallet, id))?.status

    await reconcileTrades({ networks: ['ethereum'] })
    expect(await statusOf()).toBe('pending')

    // Its block is orphaned before it was confirmed; the new chain goes on without it.
    await client.request({ method: 'anvil_rollback', params: [1] } as never)
    await client.mine({ blocks: CONFIRMATIONS + 1 })
    await reconcileTrades({ networks: ['ethereum'] })
    expect(await statusOf()).toBe('pending')

    await mined(transfer)
    await client.mine({ blocks: CONFIRMATIONS })
    await reconcileTrades({ networks: ['ethereum'] })
    expect(await statusOf()).toBe('successful')
  })
})
