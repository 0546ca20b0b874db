import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type Address,
  encodeEventTopics,
  erc20Abi,
  getAbiItem,
  getAddress,
  getContractAddress,
  type Hash,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect } from 'vitest'
import { handler as indexDepositsHandler } from '../../functions/schedules/indexDeposits'
import { handler as listTradesHandler } from '../../functions/trades/listTrades'
import { chainOf } from '../../lib/chain/clients'
import { db } from '../../lib/db/client'
import type { NetworkIndexing } from '../../lib/trades/indexDeposits'
import { loadChainConfig } from '../../lib/config'
import { setProjectPrice } from '../../lib/db/marketStats'
import { projectId } from '../../lib/db/project'
import { type AnvilNode, startAnvil } from '../../lib/local/anvil'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../lib/local/catalogTokenArtifact'
import { ANVIL_DEPLOYER_PRIVATE_KEY, DEVNET_CHAIN_IDS } from '../../lib/local/deployDex'
import { findFreePort } from '../../lib/local/findFreePort'
import { createTable } from '../../lib/local/localTable'
import { listInCatalog } from './catalogListing'
import { ownDevnetClient } from './faultEngines'
import { httpEvent, invoke } from './httpEvent'
import { countRequests } from './requestCounters'
import { runScheduled } from './scheduledRun'
import { loadTransferLoop, transferLoopAbi } from './transferLoop'

export interface IndexerEngines {
  /** The ethereum devnet's client, with the deployer as its first account. */
  client: ReturnType<typeof ownDevnetClient>
  deployer: Address
  /**
   * Where the deployer's first contract lands on the ethereum devnet: the network's USD
   * stablecoin in this file's configuration (the bare devnet has none), priced at 1 USD.
   */
  usdStablecoin: Address
  stop(): Promise<void>
}

/**
 * Both devnets and a table of a test file's own, for files that run the scheduled indexer (it
 * indexes every served network) and need its cursor to be theirs alone. Sets the environment
 * before any module reads its configuration: the modules build their clients on first use. Only
 * these two are served (the suite's stack serves every network of the table). The deployer's
 * first contract on ethereum is its USD stablecoin (deployFloodRig deploys it).
 */
export async function startIndexerEngines(tablePrefix: string): Promise<IndexerEngines> {
  const table = `${tablePrefix}-${randomUUID()}`
  const [ethereum, altchain] = await Promise.all([
    findFreePort().then((port) => startAnvil({ port, chainId: DEVNET_CHAIN_IDS.ethereum })),
    findFreePort().then((port) => startAnvil({ port, chainId: DEVNET_CHAIN_IDS.altchain })),
    createTable(String(process.env.DYNAMODB_ENDPOINT), table),
  ])
  const anvils: AnvilNode[] = [ethereum, altchain]
  const usdStablecoin = getContractAddress({
    from: privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY).address,
    nonce: 0n,
  })
  Object.assign(process.env, {
    TABLE_NAME: table,
    NETWORKS: 'ethereum,altchain',
    ETHEREUM_RPC_URL: ethereum.rpcUrl,
    ALTCHAIN_RPC_URL: altchain.rpcUrl,
    ETHEREUM_USD_STABLECOIN: usdStablecoin,
    // A run writes a flood's deposits in transactions of up to 100 items to the shared DynamoDB
    // Local, a JVM on this machine: on a loaded CI run one outlasted the deployed 1 s timeout
    // (DatabaseUnavailable). The database's latency is not what these files test; its outages
    // are databaseOutage.test.ts's (as tests/faults/indexerAttacks.test.ts).
    DYNAMODB_REQUEST_TIMEOUT_MS: '10000',
  })
  const client = ownDevnetClient(ethereum.rpcUrl, chainOf(loadChainConfig('ethereum')))
  const [deployer] = (await client.getAddresses()) as [Address]
  return {
    client,
    deployer,
    usdStablecoin,
    stop: async () => void (await Promise.all(anvils.map((a) => a.stop()))),
  }
}

const TRANSFER_TOPIC = encodeEventTopics({
  abi: [getAbiItem({ abi: erc20Abi, name: 'Transfer' })],
  eventName: 'Transfer',
})[0]

/** A dust flood's tools: the catalog's USD coin and a contract that transfers it in a loop. */
export interface FloodRig {
  usd: Address
  decimals: number
  /** A plain transfer of the coin from the deployer; its block. */
  pay(to: Address, amount: bigint): Promise<{ hash: Hash; block: bigint }>
  /** One loop transaction of `count` transfers of `value` to `to`: its block, gas and transfers. */
  spray(
    to: Address,
    options: { count: bigint; value?: bigint; gas?: bigint },
  ): Promise<{ hash: Hash; block: bigint; gasUsed: bigint; transfers: number }>
}

/**
 * Deploys the USD coin (the deployer's first contract: the network's USD stablecoin, 1 USD) and
 * the loop, lists the coin in the catalog with a project price of 1 USD too (the spot price the
 * indexer read before issue 39), and funds the loop with `loopFunds` whole coins.
 */
export async function deployFloodRig(
  { client, deployer, usdStablecoin }: IndexerEngines,
  loopFunds: string,
): Promise<FloodRig & { loop: Address }> {
  const decimals = 6
  const deployed = async (hash: Hash) =>
    getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress ?? '0x')
  const [token, transferLoop] = await Promise.all([loadCatalogTokenArtifact(), loadTransferLoop()])
  const usd = await deployed(
    await client.deployContract({
      abi: catalogTokenAbi,
      bytecode: token.bytecode,
      account: deployer,
      args: ['USD Coin', 'USDC', decimals, parseUnits('10000000', decimals), deployer],
    }),
  )
  expect(usd).toBe(usdStablecoin)
  const loop = await deployed(
    await client.deployContract({
      abi: transferLoop.abi,
      bytecode: transferLoop.bytecode,
      account: deployer,
    }),
  )
  await listInCatalog('ethereum', { address: usd, decimals, symbol: 'USDC' })
  await setProjectPrice(projectId('ethereum', usd), {
    priceE18: 10n ** 18n,
    at: new Date(),
    changes: { '24h': 0, '7d': 0, '30d': 0, '60d': 0, '90d': 0 },
  })
  const pay = async (to: Address, amount: bigint) => {
    const hash = await client.writeContract({
      address: usd,
      abi: catalogTokenAbi,
      functionName: 'transfer',
      args: [to, amount],
      account: deployer,
      chain: null,
    })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return { hash, block: receipt.blockNumber }
  }
  const spray: FloodRig['spray'] = async (to, { count, value = 1n, gas = 29_000_000n }) => {
    const hash = await client.writeContract({
      address: loop,
      abi: transferLoopAbi,
      functionName: 'spray',
      args: [usd, to, value, count],
      account: deployer,
      chain: null,
      gas,
    })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const transfers = receipt.logs.filter(
      (log) =>
        log.address.toLowerCase() === usd.toLowerCase() &&
        log.topics[0] === TRANSFER_TOPIC &&
        getAddress(`0x${log.topics[2]?.slice(26) ?? ''}`) === to,
    ).length
    return { hash, block: receipt.blockNumber, gasUsed: receipt.gasUsed, transfers }
  }
  await pay(loop, parseUnits(loopFunds, decimals))
  return { usd, decimals, loop, pay, spray }
}

export interface RunFigures {
  run: number
  timedOut: boolean
  ethereum?: Omit<NetworkIndexing, 'fromBlock' | 'toBlock'>
  rpcByMethod: Record<string, number>
  dynamoByCommand: Record<string, number>
}

/** One run of the real scheduled handler with its function's deadline, its calls counted. */
export async function indexerRun(run: number, timeoutMs: number): Promise<RunFigures> {
  const counter = countRequests(db())
  try {
    const { result, timedOut } = await runScheduled(indexDepositsHandler, timeoutMs)
    const { dynamo, rpc } = counter.take()
    const ethereum = result?.find((entry) => entry.network === 'ethereum')
    if (ethereum) {
      delete ethereum.fromBlock
      delete ethereum.toBlock
    }
    return { run, timedOut, ethereum, rpcByMethod: rpc.byMethod, dynamoByCommand: dynamo.byCommand }
  } finally {
    counter.stop()
  }
}

/** Writes a replay's figures to .test-output/faults and the log. */
export function writeFigures(name: string, figures: unknown): void {
  const folder = join('.test-output', 'faults')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`${name}: ${JSON.stringify(figures)}`)
}

/**
 * A file's own indexer engines with a flood rig whose loop holds `loopFunds` whole coins, and a
 * first run of the handler (within `timeoutMs`) that puts the cursor at the head: what came before
 * is not a deposit. Started before the file's tests, stopped after them; the returned rig is filled
 * in once they start.
 */
export function useFloodRig(tablePrefix: string, loopFunds: string, timeoutMs: number): FloodRig {
  let engines: IndexerEngines | undefined
  const rig = {} as FloodRig
  beforeAll(async () => {
    engines = await startIndexerEngines(tablePrefix)
    Object.assign(rig, await deployFloodRig(engines, loopFunds))
    expect((await indexerRun(0, timeoutMs)).timedOut).toBe(false)
  }, 180_000)
  afterAll(async () => {
    await engines?.stop()
  })
  return rig
}

/** A wallet's first page of trades through the route, as its app reads it. */
export async function firstTradesPage(access: string) {
  const response = await invoke(
    listTradesHandler,
    httpEvent({ route: 'listTrades', headers: { authorization: `Bearer ${access}` } }),
  )
  expect(response.status).toBe(200)
  return response.body.result as {
    count: number
    trades: Array<{ id: string; type: string; status: string; amountExact: string }>
  }
}

/**
 * As many one-unit transfers to `to` as a block holds: the loop's gas per transfer from two
 * estimates, what is fixed in a loop transaction, and the block's gas limit.
 */
export async function blockCapacity(
  { client, deployer }: Pick<IndexerEngines, 'client' | 'deployer'>,
  rig: FloodRig & { loop: Address },
  to: Address,
): Promise<{ gasLimit: bigint; perTransfer: bigint; perBlock: bigint }> {
  const { gasLimit } = await client.getBlock()
  const estimate = (count: bigint) =>
    client.estimateContractGas({
      address: rig.loop,
      abi: transferLoopAbi,
      functionName: 'spray',
      args: [rig.usd, to, 1n, count],
      account: deployer,
    })
  const [hundred, twoHundred] = [await estimate(100n), await estimate(200n)]
  const perTransfer = (twoHundred - hundred) / 100n
  const perBlock = (gasLimit - (hundred - 100n * perTransfer)) / perTransfer - 10n
  return { gasLimit, perTransfer, perBlock }
}
