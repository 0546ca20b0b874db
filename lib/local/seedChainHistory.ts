// DEMO DATA for the local devnets only: a year of invented price moves, traded for real on the
// devnet's pools, so the price history has something to show on a fresh `npm start`.

import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import {
  type Address,
  createTestClient,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getContractAddress,
  type Hash,
  parseAbi,
  parseGwei,
  parseUnits,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import {
  getBlock,
  getTransactionCount,
  readContract,
  removeBlockTimestampInterval,
  sendRawTransactionSync,
  setBalance,
  setBlockTimestampInterval,
  setNextBlockBaseFeePerGas,
  setNextBlockTimestamp,
} from 'viem/actions'
import { uniswapV2PairAbi } from '../chain/abis'
import { nodeHttp } from '../chain/nodeHttpTransport'
import { ANVIL_MNEMONIC } from './anvil'
import { compileSolidity } from './catalogTokenArtifact'
import { ANVIL_DEPLOYER_PRIVATE_KEY, type DexDeployment } from './deployDex'
import { SAMPLE_CATALOG } from './sampleCatalog'
import { v3PoolAbi, weth9DepositAbi } from './v3Artifacts'

const DAY = 86_400
const HOUR = 3_600

/**
 * When the year's trades happen, oldest first, in seconds before `now`: every 3 days until a month
 * ago, every 8 hours until a day ago, then every 30 minutes up to `now` itself; so each monthly,
 * daily and hourly bucket of the history windows holds a few moves. About 250 blocks.
 */
export function historySchedule(genesis: number, now: number): number[] {
  const times: number[] = []
  const from = (start: number, end: number, every: number) => {
    for (let at = start; at < end; at += every) times.push(at)
  }
  from(genesis + DAY, now - 30 * DAY, 3 * DAY)
  from(now - 30 * DAY, now - DAY, 8 * HOUR)
  from(now - DAY, now, 30 * 60)
  times.push(now)
  return times.filter((at) => at > genesis)
}

// Daily volatility of each demo token's invented USD price (log scale); the stablecoins and the
// fee-on-transfer token (whose burn would skew the trades) stay at their catalog price.
const DAILY_VOLATILITY: Readonly<Record<string, number>> = {
  USDC: 0,
  USDT: 0,
  FOT: 0,
  native: 0.03,
  WBTC: 0.02,
  BTCB: 0.02,
}
const DEFAULT_DAILY_VOLATILITY = 0.035
// No demo price strays further than this from its catalog price (log scale: ×0.64 to ×1.57).
const MAX_LOG_MOVE = 0.45

/** A deterministic stream of uniform numbers in [0, 1) (mulberry32), seeded by a name. */
function randomStream(name: string): () => number {
  let state = [...name].reduce(
    (hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619),
    2166136261,
  )
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A token's invented price path as factors of its catalog price at each scheduled time: a random
 * walk with variance proportional to elapsed time, tied back to 1 at the first and last time (a
 * Brownian bridge), so the year ends at the catalog prices the rest of the stack expects.
 */
export function priceFactors(name: string, times: readonly number[], dailyVolatility: number) {
  const first = times[0] ?? 0
  const last = times.at(-1) ?? first
  const random = randomStream(name)
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const walk: number[] = []
  let level = 0
  times.forEach((at, index) => {
    const elapsedDays = index === 0 ? 0 : (at - (times[index - 1] ?? at)) / DAY
    level += gaussian() * dailyVolatility * Math.sqrt(elapsedDays)
    walk.push(level)
  })
  const end = walk.at(-1) ?? 0
  return times.map((at, index) => {
    const tied = (walk[index] ?? 0) - (last === first ? 0 : ((at - first) / (last - first)) * end)
    return Math.exp(Math.max(-MAX_LOG_MOVE, Math.min(MAX_LOG_MOVE, tied)))
  })
}

const historyTraderAbi = parseAbi([
  'struct Move { address pool; bool v3; uint160 targetSqrtPriceX96; }',
  'function move(Move[] moves)',
])

// Fixed so every step can be signed up front: a step moves ~26 pools (V3 swaps crossing ticks).
const STEP_GAS = 12_000_000n
const MAX_FEE = parseGwei('50')
const PRIORITY_FEE = parseGwei('1')
// The trader's inventory of each token, at catalog prices (capped at half the deployer's balance).
const INVENTORY_USD = 50_000_000n
// A fresh account for the year's trades (index 50 of anvil's public mnemonic), so the demo
// account's nonce and balances stay as the deployment left them.
const TRADER_ADDRESS_INDEX = 50

/** A pool the trader moves, with its price at the deployment. */
export interface TradedPool {
  address: Address
  token0: Address
  token1: Address
  v3: boolean
  /** sqrt(token1 per token0) in Q64.96 at the deployment (a V2 pair's from its reserves). */
  sqrtPriceX96: bigint
}

export interface PoolTarget {
  pool: Address
  v3: boolean
  targetSqrtPriceX96: bigint
}

/** One block of the history: when, and where it moves the pools. */
export interface HistoryStep {
  timestamp: number
  targets: readonly PoolTarget[]
}

/** HistoryTrader.sol deployed and stocked on a devnet (DEMO DATA tooling). */
export interface HistoryTrader {
  address: Address
  /** Every pool of the deployment, V2 pairs then V3 pools. */
  pools: TradedPool[]
  /** Mines one block at `timestamp` that moves each pool to its target; the transaction's hash. */
  moveAt(timestamp: number, targets: readonly PoolTarget[]): Promise<Hash>
  /**
   * Mines one block per step, each at its time (later than the last block's), moving the pools
   * to the step's targets. Steps evenly spaced cost one round trip each: anvil gives each block
   * the interval (its automine mines each transaction in a block of its own at once).
   */
  moveThrough(steps: readonly HistoryStep[]): Promise<Hash[]>
  /** Checks that the last move was mined at its time, and clears the interval it set. */
  close(): Promise<void>
}

/**
 * Deploys HistoryTrader.sol from a fresh account (index 50 of anvil's public mnemonic, so the
 * demo account's nonce and balances stay as the deployment left them) and stocks it with each
 * token (INVENTORY_USD at catalog prices, at most half the deployer's balance) and the wrapped
 * native coin: a few blocks at the devnet's current time. Reads every pool's price as the base
 * of its moves.
 */
export async function setUpHistoryTrader(deployment: DexDeployment): Promise<HistoryTrader> {
  const client = createTestClient({
    mode: 'anvil',
    transport: nodeHttp(deployment.rpcUrl, { batch: true, timeout: 60_000, retryCount: 0 }),
  })
  const trader = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: TRADER_ADDRESS_INDEX })
  const deployer = privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY)
  const catalog = SAMPLE_CATALOG[deployment.network]
  const tokens = [
    { symbol: 'USDC', address: deployment.usdStablecoin, decimals: 6, usdPrice: '1' },
    ...[...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo].map(
      ({ symbol, address, decimals, usdPrice }) => ({ symbol, address, decimals, usdPrice }),
    ),
  ]
  const nativePrice = parseUnits(catalog.nativeCurrency.usdPrice, 18)
  const wrappedAmount = (INVENTORY_USD * 10n ** 36n) / nativePrice
  const artifact = await compileSolidity({
    sourceName: 'HistoryTrader.sol',
    source: await readFile(fileURLToPath(new URL('./HistoryTrader.sol', import.meta.url)), 'utf8'),
    contractName: 'HistoryTrader',
  })
  const [traderNonce, deployerNonce, deployerBalances] = await Promise.all([
    getTransactionCount(client, { address: trader.address, blockTag: 'pending' }),
    getTransactionCount(client, { address: deployment.deployer, blockTag: 'pending' }),
    Promise.all(
      tokens.map((token) =>
        readContract(client, {
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [deployment.deployer],
        }),
      ),
    ),
  ])
  const address = getContractAddress({ from: trader.address, nonce: BigInt(traderNonce) })
  await setBalance(client, {
    address: trader.address,
    value: wrappedAmount + parseUnits('1000', 18),
  })
  const sign = (
    account: typeof trader | typeof deployer,
    nonce: number,
    tx: { to?: Address; data: `0x${string}`; value?: bigint; gas?: bigint },
  ) =>
    account.signTransaction({
      chainId: deployment.chainId,
      type: 'eip1559',
      nonce,
      gas: tx.gas ?? 5_000_000n,
      maxFeePerGas: MAX_FEE,
      maxPriorityFeePerGas: PRIORITY_FEE,
      to: tx.to,
      data: tx.data,
      value: tx.value,
    })
  const setup = await Promise.all([
    sign(trader, traderNonce, {
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode }),
    }),
    sign(trader, traderNonce + 1, {
      to: deployment.wrappedNative,
      data: encodeFunctionData({ abi: weth9DepositAbi, functionName: 'deposit' }),
      value: wrappedAmount,
    }),
    sign(trader, traderNonce + 2, {
      to: deployment.wrappedNative,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [address, wrappedAmount],
      }),
    }),
    ...tokens.map((token, index) => {
      const price = parseUnits(token.usdPrice, 18)
      const wanted = (INVENTORY_USD * 10n ** BigInt(token.decimals + 18)) / price
      const half = (deployerBalances[index] ?? 0n) / 2n
      return sign(deployer, deployerNonce + index, {
        to: token.address,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [address, wanted < half ? wanted : half],
        }),
      })
    }),
  ])
  // One at a time, each answered once mined (a revert throws): the nonces follow one another.
  for (const serializedTransaction of setup) {
    await sendRawTransactionSync(client, { serializedTransaction, throwOnReceiptRevert: true })
  }

  const [v2Reserves, v3Slots] = await Promise.all([
    Promise.all(
      deployment.pairs.map((pair) =>
        readContract(client, {
          address: pair.address,
          abi: uniswapV2PairAbi,
          functionName: 'getReserves',
        }),
      ),
    ),
    Promise.all(
      deployment.v3.pools.map((pool) =>
        readContract(client, { address: pool.address, abi: v3PoolAbi, functionName: 'slot0' }),
      ),
    ),
  ])
  const pools: TradedPool[] = [
    ...deployment.pairs.map((pair, index) => {
      const [reserve0, reserve1] = v2Reserves[index] ?? [1n, 0n]
      return { ...pair, v3: false, sqrtPriceX96: sqrt((reserve1 << 192n) / reserve0) }
    }),
    ...deployment.v3.pools.map((pool, index) => ({
      address: pool.address,
      token0: pool.token0,
      token1: pool.token1,
      v3: true,
      sqrtPriceX96: v3Slots[index]?.[0] ?? 0n,
    })),
  ]
  let nonce = traderNonce + 3
  // What anvil does with the next block: the interval it adds to the last block's time, and the
  // time that gives; a step at another time sets its own.
  let interval: number | undefined
  let nextTime: number | undefined
  let lastTime: number | undefined
  let lastBlock: bigint | undefined
  const moveThrough = async (steps: readonly HistoryStep[]) => {
    const hashes: Hash[] = []
    for (const [index, { timestamp, targets }] of steps.entries()) {
      const serializedTransaction = await sign(trader, nonce, {
        to: address,
        gas: STEP_GAS,
        data: encodeFunctionData({
          abi: historyTraderAbi,
          functionName: 'move',
          args: [
            targets.map(({ pool, v3, targetSqrtPriceX96 }) => ({ pool, v3, targetSqrtPriceX96 })),
          ],
        }),
      })
      // The interval anvil adds from this block on, if it changes here: set after this block's
      // own time, which then must be set too (a new interval applies to the very next block).
      const following = steps[index + 1]?.timestamp
      const gap = following === undefined ? interval : following - timestamp
      if (nextTime !== timestamp || gap !== interval) {
        await setNextBlockTimestamp(client, { timestamp: BigInt(timestamp) })
      }
      if (gap !== undefined && gap !== interval) {
        interval = gap
        await setBlockTimestampInterval(client, { interval })
      }
      // Answered once mined, in a block of its own (automine), so the next step's time is set
      // after it; a revert throws.
      const receipt = await sendRawTransactionSync(client, {
        serializedTransaction,
        throwOnReceiptRevert: true,
      })
      hashes.push(receipt.transactionHash)
      lastBlock = receipt.blockNumber
      nonce += 1
      lastTime = timestamp
      nextTime = interval === undefined ? undefined : timestamp + interval
    }
    return hashes
  }
  return {
    address,
    pools,
    async moveAt(timestamp, targets) {
      const [hash] = await moveThrough([{ timestamp, targets }])
      if (!hash) throw new Error('no history move was sent')
      return hash
    },
    moveThrough,
    async close() {
      if (interval !== undefined) await removeBlockTimestampInterval(client)
      interval = undefined
      nextTime = undefined
      if (lastBlock === undefined || lastTime === undefined) return
      const { timestamp } = await getBlock(client, { blockNumber: lastBlock })
      if (Number(timestamp) !== lastTime) {
        throw new Error(`the last history move was mined at ${timestamp}, not ${lastTime}`)
      }
    },
  }
}

export interface SeedChainHistoryParameters {
  deployment: DexDeployment
  /** Unix seconds; the last trade happens then. */
  now?: number
}

export interface ChainHistory {
  /** Blocks the year's trades took (0 when the devnet had lived its year already). */
  blocks: number
  /** Wall time it took, in ms. */
  durationMs: number
}

/**
 * Lives the devnet's year (DECISIONS §8.3, locally): from the deployment, which anvil started a
 * year back, to `now`, one block of real swaps per scheduled time (see historySchedule), each
 * moving every pool to the invented prices of that time, consistently across pools so no
 * arbitrage is left open; the last ends at the catalog prices. A devnet already at the present
 * (a second seeding) is left alone.
 */
export async function seedChainHistory({
  deployment,
  now = Math.floor(Date.now() / 1000),
}: SeedChainHistoryParameters): Promise<ChainHistory> {
  const started = performance.now()
  const client = createTestClient({
    mode: 'anvil',
    transport: nodeHttp(deployment.rpcUrl, { batch: false, timeout: 60_000, retryCount: 0 }),
  })
  const [genesis, latest] = await Promise.all([
    getBlock(client, { blockNumber: 0n }),
    getBlock(client, { blockTag: 'latest' }),
  ])
  if (Number(latest.timestamp) > now - DAY) return { blocks: 0, durationMs: 0 }

  const trader = await setUpHistoryTrader(deployment)
  const symbolOf = new Map<string, string>([
    [deployment.wrappedNative.toLowerCase(), 'native'],
    [deployment.usdStablecoin.toLowerCase(), 'USDC'],
    ...[...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo].map(
      (token): [string, string] => [token.address.toLowerCase(), token.symbol],
    ),
  ])
  const times = historySchedule(Number(genesis.timestamp), now)
  const factorsOf = new Map(
    [...new Set(symbolOf.values())].map((symbol) => [
      symbol,
      priceFactors(
        `${deployment.network}:${symbol}`,
        times,
        DAILY_VOLATILITY[symbol] ?? DEFAULT_DAILY_VOLATILITY,
      ),
    ]),
  )
  const factor = (token: Address, step: number) =>
    factorsOf.get(symbolOf.get(token.toLowerCase()) ?? '')?.[step] ?? 1
  try {
    await trader.moveThrough(
      times.map((at, step) => ({
        timestamp: at,
        targets: trader.pools.map((pool) => ({
          pool: pool.address,
          v3: pool.v3,
          // price0 / price1 moves the pool's price (token1 per token0) by their ratio.
          targetSqrtPriceX96: scaleBySqrt(
            pool.sqrtPriceX96,
            factor(pool.token0, step) / factor(pool.token1, step),
          ),
        })),
      })),
    )
  } finally {
    await trader.close()
  }
  // One empty block at the wall clock, so the devnet's later blocks follow it, not `now`.
  // The year's blocks are light (a few M gas of 30M), so the base fee fell to nothing: the last
  // block is given the deployment's again, or routes would be ranked as if gas were free.
  if (latest.baseFeePerGas !== null) {
    await setNextBlockBaseFeePerGas(client, { baseFeePerGas: latest.baseFeePerGas })
  }
  await mineAt(client, Math.max(now + 1, Math.floor(Date.now() / 1000)))
  return { blocks: times.length + 1, durationMs: Math.round(performance.now() - started) }
}

/** Mines one block at `timestamp` with what is pending (`evm_mine` takes the time itself). */
async function mineAt(client: { request: (...args: never[]) => unknown }, timestamp: number) {
  await (client.request as (request: { method: string; params: unknown[] }) => Promise<unknown>)({
    method: 'evm_mine',
    params: [timestamp],
  })
}

/** `sqrtPriceX96` for a price `ratio` times the one it states (1e-12 precision; exact at 1). */
export function scaleBySqrt(sqrtPriceX96: bigint, ratio: number): bigint {
  if (ratio === 1) return sqrtPriceX96
  const scale = 1_000_000_000_000n
  return (sqrtPriceX96 * BigInt(Math.round(Math.sqrt(ratio) * 1e12))) / scale
}

function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  // Newton's method from above: a float estimate doubled is past the root.
  let root = BigInt(Math.ceil(Math.sqrt(Number(value)))) * 2n
  for (let next = (root + value / root) >> 1n; next < root; next = (root + value / root) >> 1n) {
    root = next
  }
  return root
}
