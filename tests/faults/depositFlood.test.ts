import '../support/env'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Address, type Hex, pad, parseUnits, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as indexDepositsHandler } from '../../functions/schedules/indexDeposits'
import { db } from '../../lib/db/client'
import { listTrades } from '../../lib/db/trade'
import { markWalletsKnown } from '../../lib/db/wallet'
import { indexDeposits, type NetworkIndexing } from '../../lib/trades/indexDeposits'
import { depositCursorOf } from '../support/depositCursor'
import type { JsonRpcCall } from '../support/faultEngines'
import { countRequests } from '../support/requestCounters'
import { rpcRequestChannel } from '../support/rpcChannels'
import { runScheduled } from '../support/scheduledRun'
import { signInWithWallet } from '../support/walletSignIn'
import {
  blockCapacity,
  deployFloodRig,
  firstTradesPage,
  type FloodRig,
  type IndexerEngines,
  startIndexerEngines,
} from '../support/indexerEngines'

// Issue 32, "A dust flood freezes the deposit indexer", replayed: a signed-in wallet W gets
// 30,000+ real transfers of 1 unit of the catalog's USD coin (priced at 1 USD) from a contract
// calling transfer in a loop, blocks full to the devnet's gas limit, with another wallet's deposit
// among them and then W's own real 23-unit deposit. The scheduled indexer handler runs in-process
// with a Lambda-like deadline of its function's timeout (serverless.yml: 60 s). Its own devnets
// (four full blocks would slow every other file's transactions on the shared ones) and table.
// Before (issue 32, measured on main): the first run recorded dust one transaction at a time until
// its time was up, the cursor never moved, and W's deposit was never listed.

const FLOOD_TRANSFERS = 30_000
/** indexDeposits' timeout in serverless.yml. */
const FUNCTION_TIMEOUT_MS = 60_000
const USD_DECIMALS = 6
const MAX_RUNS = 3

let engines: IndexerEngines | undefined
let rig: FloodRig & { loop: Address }

beforeAll(async () => {
  engines = await startIndexerEngines('flood')
  // The deployer's first contract: the network's USD stablecoin (startIndexerEngines), 1 USD a
  // coin, so 1 unit (0.000001) is dust and 0.01 is not; the loop holds 1 USD.
  rig = await deployFloodRig(engines, '1')
}, 180_000)

afterAll(async () => {
  await engines?.stop()
})

interface RunFigures {
  run: number
  timedOut: boolean
  ethereum?: NetworkIndexing
  rpcCalls: number
  rpcByMethod: Record<string, number>
  dynamoCalls: number
  dynamoWrites: number
  dynamoByCommand: Record<string, number>
}

const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']

async function indexerRun(run: number): Promise<RunFigures> {
  const counter = countRequests(db())
  try {
    const { result, timedOut } = await runScheduled(indexDepositsHandler, FUNCTION_TIMEOUT_MS)
    const { dynamo, rpc } = counter.take()
    return {
      run,
      timedOut,
      ethereum: result?.find((entry) => entry.network === 'ethereum'),
      rpcCalls: rpc.calls,
      rpcByMethod: rpc.byMethod,
      dynamoCalls: dynamo.calls,
      dynamoWrites: WRITES.reduce((sum, name) => sum + (dynamo.byCommand[name] ?? 0), 0),
      dynamoByCommand: dynamo.byCommand,
    }
  } finally {
    counter.stop()
  }
}

describe('a dust flood of 30,000 one-unit transfers into a signed-in wallet', () => {
  it('is passed within the time limit: a bystander’s deposit in the flood is listed by the first run, the wallet’s own by the third at the latest, and its first page holds no dust', async () => {
    const [flooded, bystander] = [await signInWithWallet(), await signInWithWallet()]
    // The first run puts the cursor at the head: what came before is not a deposit.
    expect((await indexerRun(0)).timedOut).toBe(false)

    // As many transfers as a block holds: the loop's gas per transfer, from two estimates.
    const { gasLimit, perTransfer, perBlock } = await blockCapacity(
      engines as IndexerEngines,
      rig,
      flooded.address,
    )
    const floodBlocks: Array<Awaited<ReturnType<typeof rig.spray>>> = []
    while (floodBlocks.reduce((sum, block) => sum + block.transfers, 0) < FLOOD_TRANSFERS) {
      // As large as a block takes.
      floodBlocks.push(await rig.spray(flooded.address, { count: perBlock, gas: gasLimit }))
      // Another wallet's real deposit inside the flood's range.
      if (floodBlocks.length === 2) {
        await rig.pay(bystander.address, parseUnits('5', USD_DECIMALS))
      }
    }
    await rig.pay(flooded.address, parseUnits('23', USD_DECIMALS))
    const lastFloodBlock = floodBlocks.at(-1)?.block ?? 0n

    const sent = floodBlocks.reduce((sum, block) => sum + block.transfers, 0)
    expect(sent).toBeGreaterThanOrEqual(FLOOD_TRANSFERS)
    expect(floodBlocks.length).toBeGreaterThanOrEqual(4)
    // Each flood block is full: what is left of its gas limit holds fewer than 20 more transfers.
    for (const block of floodBlocks) {
      expect(gasLimit - block.gasUsed).toBeLessThan(20n * perTransfer)
    }
    expect(perTransfer).toBeLessThan(4_000n)

    const runs: RunFigures[] = []
    let listed: Awaited<ReturnType<typeof firstTradesPage>> | undefined
    for (let run = 1; run <= MAX_RUNS; run += 1) {
      const figures = await indexerRun(run)
      runs.push(figures)
      // Written as they come, so a run that fails its checks is still measured.
      writeFigures({ sent, blocks: floodBlocks.length, perTransfer: Number(perTransfer), runs })
      expect(figures.timedOut).toBe(false)
      expect(figures.ethereum?.stoppedBy).not.toBe('time')
      if (run === 1) {
        expect(await firstTradesPage(bystander.access)).toEqual({
          count: 1,
          trades: [expect.objectContaining({ type: 'deposit', amountExact: '5' })],
        })
      }
      const page = await firstTradesPage(flooded.access)
      if (page.count > 0) {
        listed = page
        break
      }
    }
    const cursor = await depositCursorOf('ethereum')

    // Its first page: its own deposit, nothing of the flood.
    expect(listed).toEqual({
      count: 1,
      trades: [
        expect.objectContaining({ type: 'deposit', status: 'successful', amountExact: '23' }),
      ],
    })
    expect(cursor).toBeGreaterThan(lastFloodBlock)
    // Every flood transfer was weighed as dust, none listed.
    const dust = runs.reduce((sum, run) => sum + (run.ethereum?.dust ?? 0), 0)
    expect(dust).toBe(sent)
  }, 600_000)
})

describe('a flood of deposits worth 0.01 USD each (no dust) into one wallet', () => {
  it('holds back only that wallet: another’s deposit is listed by the first run, and its own follow, each once, from exactly where each run stopped', async () => {
    const flooded = privateKeyToAccount(generatePrivateKey()).address
    const bystander = privateKeyToAccount(generatePrivateKey()).address
    await markWalletsKnown([flooded, bystander])
    await indexDeposits({ networks: ['ethereum'] })
    await rig.pay(rig.loop, parseUnits('20', USD_DECIMALS))
    // 1,500 transfers of 0.01 USD, then another wallet's deposit and the wallet's own.
    const flood = await rig.spray(flooded, { count: 1_500n, value: 10_000n, gas: 10_000_000n })
    await rig.pay(bystander, parseUnits('1', USD_DECIMALS))
    await rig.pay(flooded, parseUnits('2', USD_DECIMALS))
    const limits = { deposits: 400 }

    const [first] = await indexDeposits({ networks: ['ethereum'], limits })

    expect(first).toMatchObject({ recorded: 400, deferred: 1_501 - 399, lagging: 1 })
    expect(await depositsOf(bystander)).toEqual([
      expect.objectContaining({ amount: '1', status: 'successful' }),
    ])
    const recorded: number[] = [first?.recorded ?? 0]
    const logQueries: Array<{ fromBlock: string; recipients: unknown }> = []
    const onRequest = (message: unknown) => {
      for (const call of [JSON.parse(String(message)) as JsonRpcCall].flat()) {
        if (call.method !== 'eth_getLogs') continue
        const [filter] = call.params as Array<{ fromBlock: string; topics: unknown[] }>
        logQueries.push({ fromBlock: filter?.fromBlock ?? '', recipients: filter?.topics[2] })
      }
    }
    subscribe(rpcRequestChannel.name, onRequest)
    try {
      while (recorded.reduce((sum, count) => sum + count, 0) < 1_502 && recorded.length < 10) {
        const [run] = await indexDeposits({ networks: ['ethereum'], limits })
        recorded.push(run?.recorded ?? 0)
      }
    } finally {
      unsubscribe(rpcRequestChannel.name, onRequest)
    }

    // The deposit budget a run, the flooded wallet's share of it, until it has them all.
    expect(recorded).toEqual([400, 400, 400, 302])
    // Read back for that wallet alone, from the flood's block on.
    expect(logQueries.length).toBeGreaterThan(0)
    for (const query of logQueries) {
      expect(query).toEqual({
        fromBlock: toHex(flood.block),
        recipients: [pad(flooded.toLowerCase() as Hex)],
      })
    }
    const { count, trades } = await listTrades({
      wallet: flooded,
      limit: 2_000,
      offset: 0,
      direction: 'ASC',
    })
    expect(count).toBe(1_501)
    const places = new Set(trades.map((trade) => `${trade.hash}:${trade.logIndex}`))
    expect(places.size).toBe(1_501)
    expect(trades.filter((trade) => trade.hash === flood.hash)).toHaveLength(1_500)
    const [last] = await indexDeposits({ networks: ['ethereum'], limits })
    expect(last).toMatchObject({ recorded: 0, lagging: 0 })
  }, 300_000)
})

async function depositsOf(wallet: Address) {
  const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })
  return trades.filter((trade) => trade.type === 'deposit')
}

function writeFigures(figures: unknown): void {
  const folder = join('.test-output', 'faults')
  mkdirSync(folder, { recursive: true })
  writeFileSync(
    join(folder, 'depositFlood.json'),
    `${JSON.stringify(figures, (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value), 2)}\n`,
  )
}
