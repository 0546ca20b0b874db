import '../../support/env'
import { type Address, getAddress, type Hash, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as indexDepositsHandler } from '../../../functions/schedules/indexDeposits'
import { db } from '../../../lib/db/client'
import { listDepositLags } from '../../../lib/db/depositLags'
import { listTrades } from '../../../lib/db/trade'
import { markWalletsKnown } from '../../../lib/db/wallet'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../../lib/local/catalogTokenArtifact'
import { indexDeposits } from '../../../lib/trades/indexDeposits'
import { listInCatalog } from '../../support/catalogListing'
import { depositCursorOf, placeDepositCursor } from '../../support/depositCursor'
import { ownDevnetClient } from '../../support/faultEngines'
import { writeTrades } from '../../support/bulkTrades'
import { spyOnDbSend } from '../../support/dbSendSpy'
import { countRequests } from '../../support/requestCounters'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { type IndexerEngines, startIndexerEngines } from '../../support/indexerEngines'

// DECISIONS §9.1, bounded, resumable work: a run stops on its counts (transfers examined), or
// before its time is up (the Lambda context's remaining time, controlled here), and the next run
// goes on from where it stopped; a range scanned again costs reads. A devnet and table of its own:
// the cursor must be this file's alone, and it mines hundreds of blocks.

let engines: IndexerEngines | undefined
let client: ReturnType<typeof ownDevnetClient>
let deployer: Address
let token: Address

beforeAll(async () => {
  engines = await startIndexerEngines('runs')
  ;({ client, deployer } = engines)
  const artifact = await loadCatalogTokenArtifact()
  const hash = await client.deployContract({
    abi: catalogTokenAbi,
    bytecode: artifact.bytecode,
    account: deployer,
    args: ['Listed USD', 'LUSD', 6, parseUnits('1000000', 6), deployer],
  })
  token = getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress ?? '0x')
  await listInCatalog('ethereum', { address: token, decimals: 6, symbol: 'LUSD' })
  await indexDeposits()
}, 120_000)

afterAll(async () => {
  await engines?.stop()
})

const knownWallet = async () => {
  const wallet = privateKeyToAccount(generatePrivateKey()).address
  await markWalletsKnown([wallet])
  return wallet
}

async function payToken(to: Address, amount: string) {
  const hash = await client.writeContract({
    address: token,
    abi: catalogTokenAbi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, 6)],
    account: deployer,
    chain: null,
  })
  return client.waitForTransactionReceipt({ hash })
}

async function payNative(to: Address, amount: string) {
  const hash = await client.sendTransaction({
    to,
    value: parseEther(amount),
    account: deployer,
    chain: null,
  })
  return client.waitForTransactionReceipt({ hash })
}

async function amountsOf(wallet: Address) {
  const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })
  return trades.map((trade) => trade.amount).sort()
}

const head = () => client.getBlockNumber({ cacheTime: 0 })

describe('an indexer run', () => {
  it('reads its budget unfiltered, as much again for known wallets only (leaving out the one that took its share), stops after the window that spent both, and the next run goes on from the next block', async () => {
    const [a, b, c] = [await knownWallet(), await knownWallet(), await knownWallet()]
    const start = (await depositCursorOf('ethereum')) ?? 0n
    const first = await payToken(a, '1')
    // More than a window (200 blocks) between the deposits.
    await client.mine({ blocks: 250 })
    const second = await payToken(b, '2')
    await client.mine({ blocks: 250 })
    const third = await payToken(c, '3')
    const limits = { reads: 1 }

    const [one] = await indexDeposits({ networks: ['ethereum'], limits })
    const lags = await listDepositLags('ethereum')
    const [two] = await indexDeposits({ networks: ['ethereum'], limits })

    expect(first.blockNumber).toBe(start)
    expect(second.blockNumber).toBeLessThan(start + 400n)
    expect(one).toMatchObject({
      fromBlock: start,
      toBlock: start + 399n,
      recorded: 2,
      examined: 2,
      stoppedBy: 'budget',
      advanced: true,
      lagging: 1,
    })
    // `a` took the whole unfiltered budget: the rest of the range waits in its lag.
    expect(lags).toEqual([
      expect.objectContaining({ wallet: a, fromBlock: start + 200n, toBlock: start + 400n }),
    ])
    expect(two).toMatchObject({
      fromBlock: start + 400n,
      toBlock: third.blockNumber,
      recorded: 1,
      lagging: 0,
    })
    expect(two?.stoppedBy).toBeUndefined()
    expect([await amountsOf(a), await amountsOf(b), await amountsOf(c)]).toEqual([
      ['1'],
      ['2'],
      ['3'],
    ])
  })

  it('with less time left than its safety margin starts nothing, and the next run does the work', async () => {
    const wallet = await knownWallet()
    const before = await depositCursorOf('ethereum')
    await payToken(wallet, '3')
    const counter = countRequests(db())

    const [late] = await indexDepositsHandler(
      { 'detail-type': 'Scheduled Event', source: 'aws.events' } as never,
      { getRemainingTimeInMillis: () => 1_000 },
    )

    const { dynamo } = counter.take()
    counter.stop()
    expect(late).toMatchObject({ network: 'ethereum', recorded: 0, advanced: false })
    expect(late?.stoppedBy).toBe('time')
    // Each network's cursor, read: nothing else, and no write.
    expect(dynamo.byCommand).toEqual({ GetItem: 2 })
    expect(await depositCursorOf('ethereum')).toBe(before)

    const [next] = await indexDepositsHandler(
      { 'detail-type': 'Scheduled Event', source: 'aws.events' } as never,
      { getRemainingTimeInMillis: () => 60_000 },
    )
    expect(next).toMatchObject({ recorded: 1, fromBlock: before })
    expect(await amountsOf(wallet)).toEqual(['3'])
  })

  it('whose time runs out after its scan keeps the cursor at its native deposit’s block, so the next run scans that block and the token deposits after it again and records them', async () => {
    const wallet = await knownWallet()
    const before = (await depositCursorOf('ethereum')) ?? 0n
    const native = await payNative(wallet, '0.5')
    const tokenDeposit = await payToken(wallet, '4')
    await payToken(wallet, '5')
    // The time is up once the scan has asked for its logs: nothing is written.
    let scanned = false
    const onRequest = (body: unknown) => {
      scanned ||= String(body).includes('eth_getLogs')
    }
    subscribe(rpcRequestChannel.name, onRequest)
    const remainingMs = () => (scanned ? 0 : 60_000)

    const [cut] = await indexDeposits({ networks: ['ethereum'], remainingMs }).finally(() =>
      unsubscribe(rpcRequestChannel.name, onRequest),
    )

    expect(cut).toMatchObject({ recorded: 0, deferred: 2, lagging: 0, advanced: false })
    // Held at the native deposit's block: the token deposits after it are scanned again.
    expect(native.blockNumber).toBe(before)
    expect(await depositCursorOf('ethereum')).toBe(native.blockNumber)
    expect(await listDepositLags('ethereum')).toEqual([])
    expect(tokenDeposit.blockNumber).toBe(native.blockNumber + 1n)

    const [next] = await indexDeposits({ networks: ['ethereum'] })
    expect(next).toMatchObject({
      recorded: 3,
      fromBlock: native.blockNumber,
      toBlock: await head(),
    })
    expect(await amountsOf(wallet)).toEqual(['0.5', '4', '5'])
  })

  it('whose time runs out while writing leaves the rest of a wallet’s token deposits in a lag, from its block and log index, and the next run records exactly those', async () => {
    const wallet = await knownWallet()
    const receipts: Array<Awaited<ReturnType<typeof payToken>>> = []
    await client.setAutomine(false)
    const hashes: Hash[] = []
    try {
      for (let n = 1; n <= 30; n += 1) {
        hashes.push(
          await client.writeContract({
            address: token,
            abi: catalogTokenAbi,
            functionName: 'transfer',
            args: [wallet, parseUnits(String(n), 6)],
            account: deployer,
            chain: null,
          }),
        )
      }
      await client.mine({ blocks: 1 })
    } finally {
      await client.setAutomine(true)
    }
    for (const hash of hashes) receipts.push(await client.waitForTransactionReceipt({ hash }))
    // The time is up once the first transaction (24 deposits) has been sent.
    const send = spyOnDbSend()
    const remainingMs = () =>
      send.mock.calls.some(([command]) => command instanceof TransactWriteCommand) ? 0 : 60_000

    const [cut] = await indexDeposits({ networks: ['ethereum'], remainingMs })

    expect(cut).toMatchObject({ recorded: 24, deferred: 6, lagging: 1 })
    const [lag] = await listDepositLags('ethereum')
    const resumeAt = receipts[24]?.logs[0]
    expect(lag).toMatchObject({
      wallet,
      fromBlock: resumeAt?.blockNumber,
      fromLog: resumeAt?.logIndex,
      toBlock: (resumeAt?.blockNumber ?? 0n) + 1n,
    })

    const [next] = await indexDeposits({ networks: ['ethereum'] })
    expect(next).toMatchObject({ recorded: 6, lagging: 0 })
    expect(await listDepositLags('ethereum')).toEqual([])
    const { count, trades } = await listTrades({
      wallet,
      limit: 30,
      offset: 0,
      direction: 'ASC',
    })
    expect(count).toBe(30)
    expect(trades.map((trade) => Number(trade.amount))).toEqual(
      Array.from({ length: 30 }, (_, index) => index + 1),
    )
  })

  it('passes over the deposits of a wallet recorded before positions (not migrated) rather than hold the others', async () => {
    const [unmigrated, other] = [await knownWallet(), await knownWallet()]
    await writeTrades(unmigrated, 3, { numbered: false })
    await payToken(unmigrated, '7')
    await payToken(other, '8')

    const [run] = await indexDeposits({ networks: ['ethereum'] })

    expect(run).toMatchObject({ recorded: 1, lagging: 0, advanced: true })
    expect(await amountsOf(other)).toEqual(['8'])
    expect(await depositCursorOf('ethereum')).toBe((await head()) + 1n)
  })

  it('scanning a recorded range again costs marker reads, and writes only the cursor', async () => {
    const wallet = await knownWallet()
    const native = await payNative(wallet, '1.5')
    await payToken(wallet, '6')
    const [first] = await indexDeposits({ networks: ['ethereum'] })
    expect(first).toMatchObject({ recorded: 2 })
    await placeDepositCursor('ethereum', native.blockNumber)
    const counter = countRequests(db())

    const [again] = await indexDeposits({ networks: ['ethereum'] })

    const { dynamo } = counter.take()
    counter.stop()
    expect(again).toMatchObject({ recorded: 0, fromBlock: native.blockNumber })
    // The cursor, the catalog and the lags; the catalog's path prices, the known wallets, the
    // counterparties and the two markers; the cursor moved. No transaction, failed or not.
    expect(dynamo.byCommand).toEqual({ GetItem: 1, Query: 2, BatchGetItem: 4, UpdateItem: 1 })
    expect(await amountsOf(wallet)).toEqual(['1.5', '6'])
  })
})
