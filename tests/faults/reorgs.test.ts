import '../support/env'
import { randomUUID } from 'node:crypto'
import { encodeFunctionData, type Hex, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainOf } from '../../lib/chain/clients'
import { loadChainConfig } from '../../lib/config'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { getTrade, listTrades, recordTrade } from '../../lib/db/trade'
import { listDepositLags } from '../../lib/db/depositLags'
import { markWalletsKnown } from '../../lib/db/wallet'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../lib/local/catalogTokenArtifact'
import { DEVNET_CHAIN_IDS } from '../../lib/local/deployDex'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { reconcileTrades } from '../../lib/trades/reconcileTrades'
import { createTable } from '../../lib/local/localTable'
import {
  ownDevnetClient,
  type RestartableAnvil,
  startRestartableAnvil,
} from '../support/faultEngines'
import { listInCatalog } from '../support/catalogListing'
import { createMockTrade } from '../support/tradeFixtures'
import { TESTED_NETWORKS } from '../support/networkCases'

// DECISIONS §7.2 on both networks, each on a devnet of this file's own (the shared devnets serve
// other files), reorganised with anvil_rollback (blocks dropped, the chain goes on without them)
// and anvil_reorg (the last blocks replaced at once by others, which may re-include some of the
// dropped transactions); and a table of its own (the deposit cursors are shared otherwise). The
// indexer and the reconciler never call the DEX, so the shared stack's addresses only satisfy the
// configuration. A confirmation depth of 2: a block counts once two more are on top.

const CONFIRMATIONS = 2
const anvils: Partial<Record<NetworkName, RestartableAnvil>> = {}

function devnetClient(network: NetworkName, rpcUrl: string) {
  return ownDevnetClient(rpcUrl, chainOf(loadChainConfig(network)))
}

type DevnetClient = ReturnType<typeof devnetClient>
const clients: Partial<Record<NetworkName, DevnetClient>> = {}

beforeAll(async () => {
  const table = `reorgs-${randomUUID()}`
  const [started] = await Promise.all([
    Promise.all(
      NETWORK_NAMES.map(
        async (network) =>
          [network, await startRestartableAnvil({ chainId: DEVNET_CHAIN_IDS[network] })] as const,
      ),
    ),
    createTable(String(process.env.DYNAMODB_ENDPOINT), table),
  ])
  Object.assign(anvils, Object.fromEntries(started))
  // Before any module reads its configuration: settings are read once, on first use.
  process.env.TABLE_NAME = table
  // The indexer's batched writes to the shared DynamoDB Local outlasted the deployed 1 s timeout
  // on a loaded CI run; the database's latency is not what this file tests.
  process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '10000'
  for (const network of NETWORK_NAMES) {
    Object.assign(process.env, {
      [`${network.toUpperCase()}_RPC_URL`]: anvils[network]?.rpcUrl,
      [`${network.toUpperCase()}_CONFIRMATIONS`]: String(CONFIRMATIONS),
    })
  }
  for (const network of NETWORK_NAMES) {
    clients[network] = devnetClient(network, String(anvils[network]?.rpcUrl))
  }
}, 120_000)

afterAll(async () => {
  await Promise.all(Object.values(anvils).map((anvil) => anvil.close()))
})

describe.each(TESTED_NETWORKS)('on %s', (network) => {
  const client = () => clients[network] as DevnetClient
  const index = async () => {
    const [run] = await indexDeposits({ networks: [network] })
    return run
  }
  const reconcile = () => reconcileTrades({ networks: [network] })

  /** A signed transfer of 1 coin from a new funded account to `to`, not yet sent. */
  async function signedTransfer(to: `0x${string}`): Promise<Hex> {
    const sender = privateKeyToAccount(generatePrivateKey())
    await client().setBalance({ address: sender.address, value: parseEther('10') })
    return client().signTransaction({
      account: sender,
      chain: client().chain,
      to,
      value: parseEther('1'),
      gas: 21_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
      nonce: 0,
    })
  }

  async function mined(serializedTransaction: Hex) {
    const hash = await client().sendRawTransaction({ serializedTransaction })
    return client().waitForTransactionReceipt({ hash })
  }

  /**
   * anvil_reorg: the last `depth` blocks are replaced by as many new ones, holding only the given
   * transactions, each in the new block at `offset` from the first replaced height.
   */
  async function reorganise(depth: bigint, include: Array<[Hex, number]> = []) {
    await client().request({ method: 'anvil_reorg', params: [Number(depth), include] } as never)
  }

  async function depositsOf(wallet: `0x${string}`) {
    const { count, trades } = await listTrades({ wallet, limit: 100, offset: 0, direction: 'DESC' })
    return { count, deposits: trades.filter((trade) => trade.type === 'deposit') }
  }

  describe('the deposit indexer', () => {
    // First, while the devnet is new: its chain is shorter than the confirmation depth.
    it('follows a chain shorter than the confirmation depth from block 0 and records its first deposit once confirmed', async () => {
      expect(await client().getBlockNumber({ cacheTime: 0 })).toBeLessThan(CONFIRMATIONS)
      const wallet = privateKeyToAccount(generatePrivateKey()).address
      await markWalletsKnown([wallet])
      await index()
      const receipt = await mined(await signedTransfer(wallet))
      await index()
      await client().mine({ blocks: CONFIRMATIONS })
      await index()

      expect(await depositsOf(wallet)).toEqual({
        count: 1,
        deposits: [expect.objectContaining({ hash: receipt.transactionHash })],
      })
    })

    it('records only confirmed deposits, removes one whose block was rolled back, and records its re-inclusion once', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey()).address
      await markWalletsKnown([wallet])
      await index()
      const transfer = await signedTransfer(wallet)
      const receipt = await mined(transfer)

      await index()
      expect((await depositsOf(wallet)).deposits).toHaveLength(0)

      await client().mine({ blocks: CONFIRMATIONS })
      await index()
      expect((await depositsOf(wallet)).deposits).toEqual([
        expect.objectContaining({ hash: receipt.transactionHash, status: 'successful' }),
      ])

      // The deposit's block and the two on top of it are orphaned; the new chain is longer.
      await client().request({ method: 'anvil_rollback', params: [CONFIRMATIONS + 1] } as never)
      await client().mine({ blocks: CONFIRMATIONS + 2 })
      const run = await index()

      expect(run?.removed).toBe(1)
      expect(await depositsOf(wallet)).toEqual({ count: 0, deposits: [] })

      const again = await mined(transfer)
      await client().mine({ blocks: CONFIRMATIONS })
      await index()
      await index()

      expect(again.transactionHash).toBe(receipt.transactionHash)
      expect(again.blockHash).not.toBe(receipt.blockHash)
      expect(await depositsOf(wallet)).toEqual({
        count: 1,
        deposits: [
          expect.objectContaining({
            hash: receipt.transactionHash,
            blockNumber: again.blockNumber,
          }),
        ],
      })
    })

    it('after anvil_reorg, removes a deposit the new chain dropped and records the one it re-included in another block once', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey()).address
      await markWalletsKnown([wallet])
      await index()
      const dropped = await signedTransfer(wallet)
      const kept = await signedTransfer(wallet)
      const droppedReceipt = await mined(dropped)
      const keptReceipt = await mined(kept)
      await client().mine({ blocks: CONFIRMATIONS })
      await index()
      expect((await depositsOf(wallet)).count).toBe(2)

      // Every block from the first deposit's up is replaced (the chain keeps its height): the
      // first deposit is in none of them, the second in the first one, a block lower than before.
      const head = await client().getBlockNumber({ cacheTime: 0 })
      await reorganise(head - droppedReceipt.blockNumber + 1n, [[kept, 0]])
      const reincluded = await client().getTransactionReceipt({ hash: keptReceipt.transactionHash })
      const droppedNow = client().getTransactionReceipt({ hash: droppedReceipt.transactionHash })
      await expect(droppedNow).rejects.toThrow(/could not be found/)
      expect(reincluded.blockNumber).toBe(droppedReceipt.blockNumber)

      const run = await index()
      await index()

      expect(run).toMatchObject({ removed: 2, recorded: 1 })
      expect(await depositsOf(wallet)).toEqual({
        count: 1,
        deposits: [
          expect.objectContaining({
            hash: keptReceipt.transactionHash,
            status: 'successful',
            blockNumber: reincluded.blockNumber,
          }),
        ],
      })
    })

    it('after anvil_reorg under a wallet left lagging, removes what was recorded of the orphaned block and records its re-inclusion once, all of it', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey()).address
      await markWalletsKnown([wallet])
      // A catalog token held by an account whose 30 transfers are signed before they are sent,
      // so anvil_reorg can mine them again.
      const holder = privateKeyToAccount(generatePrivateKey())
      await client().setBalance({ address: holder.address, value: parseEther('10') })
      const artifact = await loadCatalogTokenArtifact()
      const deployed = await client().waitForTransactionReceipt({
        hash: await client().deployContract({
          abi: catalogTokenAbi,
          bytecode: artifact.bytecode,
          account: holder,
          chain: client().chain,
          args: ['Listed', 'LST', 6, parseUnits('1000', 6), holder.address],
        }),
      })
      const token = deployed.contractAddress ?? '0x'
      await listInCatalog(network, { address: token, decimals: 6 })
      const nonce = await client().getTransactionCount({ address: holder.address })
      const signed = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          client().signTransaction({
            account: holder,
            chain: client().chain,
            to: token,
            data: encodeFunctionData({
              abi: catalogTokenAbi,
              functionName: 'transfer',
              args: [wallet, parseUnits(String(index + 1), 6)],
            }),
            gas: 100_000n,
            maxFeePerGas: 10n ** 10n,
            maxPriorityFeePerGas: 10n ** 9n,
            nonce: nonce + index,
          }),
        ),
      )
      await index()
      await client().setAutomine(false)
      try {
        for (const serializedTransaction of signed) {
          await client().sendRawTransaction({ serializedTransaction })
        }
        await client().mine({ blocks: 1 })
      } finally {
        await client().setAutomine(true)
      }
      const block = await client().getBlockNumber({ cacheTime: 0 })
      await client().mine({ blocks: CONFIRMATIONS })
      const [first] = await indexDeposits({ networks: [network], limits: { deposits: 10 } })
      expect(first).toMatchObject({ recorded: 10, lagging: 1 })

      // The block is replaced by one holding the same 30 transfers; then confirmed again.
      const head = await client().getBlockNumber({ cacheTime: 0 })
      await reorganise(
        head - block + 1n,
        signed.map((transaction) => [transaction, 0]),
      )
      await client().mine({ blocks: CONFIRMATIONS })
      const run = await index()
      await index()

      expect(run).toMatchObject({ removed: 10 })
      const { count, deposits } = await depositsOf(wallet)
      expect(count).toBe(30)
      expect(deposits.map((deposit) => Number(deposit.amount)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, index) => index + 1),
      )
      expect(await listDepositLags(network)).toEqual([])
    })
  })

  describe('the reconciler', () => {
    it('never settles a trade before its confirmations, so a rolled-back one stays pending', async () => {
      const transfer = await signedTransfer(privateKeyToAccount(generatePrivateKey()).address)
      const receipt = await mined(transfer)
      const trade = createMockTrade({ hash: receipt.transactionHash, network })
      const { id } = await recordTrade(trade)
      const statusOf = async () => (await getTrade(trade.wallet, id))?.status

      await reconcile()
      expect(await statusOf()).toBe('pending')

      // Its block is orphaned before it was confirmed; the new chain goes on without it.
      await client().request({ method: 'anvil_rollback', params: [1] } as never)
      await client().mine({ blocks: CONFIRMATIONS + 1 })
      await reconcile()
      expect(await statusOf()).toBe('pending')

      await mined(transfer)
      await client().mine({ blocks: CONFIRMATIONS })
      await reconcile()
      expect(await statusOf()).toBe('successful')
    })

    it('after anvil_reorg, leaves a dropped trade pending and settles a re-included one with its new block', async () => {
      const dropped = await signedTransfer(privateKeyToAccount(generatePrivateKey()).address)
      const kept = await signedTransfer(privateKeyToAccount(generatePrivateKey()).address)
      const droppedReceipt = await mined(dropped)
      const keptReceipt = await mined(kept)
      const droppedTrade = createMockTrade({ hash: droppedReceipt.transactionHash, network })
      const keptTrade = createMockTrade({ hash: keptReceipt.transactionHash, network })
      const ids = [(await recordTrade(droppedTrade)).id, (await recordTrade(keptTrade)).id]
      const tradesNow = () =>
        Promise.all([
          getTrade(droppedTrade.wallet, ids[0] ?? ''),
          getTrade(keptTrade.wallet, ids[1] ?? ''),
        ])

      await reconcile()
      expect((await tradesNow()).map((trade) => trade?.status)).toEqual(['pending', 'pending'])

      // Both blocks are replaced before either was confirmed; only the second trade is mined
      // again, in the first new block. Then the new chain confirms it.
      await reorganise(2n, [[kept, 0]])
      await client().mine({ blocks: CONFIRMATIONS })
      const reincluded = await client().getTransactionReceipt({ hash: keptReceipt.transactionHash })
      await reconcile()

      expect(reincluded.blockNumber).toBe(droppedReceipt.blockNumber)
      expect(await tradesNow()).toEqual([
        expect.objectContaining({ status: 'pending' }),
        expect.objectContaining({ status: 'successful', blockNumber: reincluded.blockNumber }),
      ])
    })
  })
})
