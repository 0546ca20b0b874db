// DEMO DATA tooling for the local devnets only: HistoryTrader.sol, which moves every pool of a
// deployment to a target price in one block, deployed and stocked from an account of its own.

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
  type Hex,
  parseAbi,
  parseGwei,
  parseUnits,
} from 'viem'
import {
  type HDAccount,
  mnemonicToAccount,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'
import {
  getBlock,
  getTransactionCount,
  readContract,
  removeBlockTimestampInterval,
  sendRawTransactionSync,
  setBalance,
  setBlockTimestampInterval,
  setNextBlockTimestamp,
} from 'viem/actions'
import { uniswapV2PairAbi } from '../chain/abis'
import { nodeHttp } from '../chain/nodeHttpTransport'
import { ANVIL_MNEMONIC } from './anvil'
import { compileSolidity } from './catalogTokenArtifact'
import { ANVIL_DEPLOYER_PRIVATE_KEY, type DexDeployment } from './deployDex'
import { sqrt } from './historyPrices'
import { SAMPLE_CATALOG } from './sampleCatalog'
import { v3PoolAbi, weth9DepositAbi } from './v3Artifacts'

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

const traderClient = (rpcUrl: string) =>
  createTestClient({
    mode: 'anvil',
    transport: nodeHttp(rpcUrl, { batch: true, timeout: 60_000, retryCount: 0 }),
  })
type TraderClient = ReturnType<typeof traderClient>

type Sign = (
  account: HDAccount | PrivateKeyAccount,
  nonce: number,
  tx: { to?: Address; data: Hex; value?: bigint; gas?: bigint },
) => Promise<Hex>

/** Signs a transaction of the devnet at the fixed fees, so every step can be signed up front. */
const signerOf =
  (chainId: number): Sign =>
  (account, nonce, tx) =>
    account.signTransaction({
      chainId,
      type: 'eip1559',
      nonce,
      gas: tx.gas ?? 5_000_000n,
      maxFeePerGas: MAX_FEE,
      maxPriorityFeePerGas: PRIORITY_FEE,
      to: tx.to,
      data: tx.data,
      value: tx.value,
    })

/** The tokens the trader holds: the USD stablecoin and every catalog, V3-only and zoo token. */
function stockedTokens(deployment: DexDeployment) {
  return [
    { symbol: 'USDC', address: deployment.usdStablecoin, decimals: 6, usdPrice: '1' },
    ...[...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo].map(
      ({ symbol, address, decimals, usdPrice }) => ({ symbol, address, decimals, usdPrice }),
    ),
  ]
}

interface Stocking {
  client: TraderClient
  deployment: DexDeployment
  trader: HDAccount
  sign: Sign
}

/**
 * Deploys HistoryTrader.sol from the trader's account, wraps native coin into it and has the
 * deployer send it each token; a few blocks at the devnet's current time. Its address and the
 * trader's next nonce.
 */
async function deployAndStock({ client, deployment, trader, sign }: Stocking) {
  const deployer = privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY)
  const tokens = stockedTokens(deployment)
  const nativePrice = parseUnits(SAMPLE_CATALOG[deployment.network].nativeCurrency.usdPrice, 18)
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
  const transfer = (to: Address, amount: bigint) => ({
    to,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, amount] }),
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
    sign(trader, traderNonce + 2, transfer(deployment.wrappedNative, wrappedAmount)),
    ...tokens.map((token, index) => {
      const price = parseUnits(token.usdPrice, 18)
      const wanted = (INVENTORY_USD * 10n ** BigInt(token.decimals + 18)) / price
      const half = (deployerBalances[index] ?? 0n) / 2n
      return sign(
        deployer,
        deployerNonce + index,
        transfer(token.address, wanted < half ? wanted : half),
      )
    }),
  ])
  // One at a time, each answered once mined (a revert throws): the nonces follow one another.
  for (const serializedTransaction of setup) {
    await sendRawTransactionSync(client, { serializedTransaction, throwOnReceiptRevert: true })
  }
  return { address, nonce: traderNonce + 3 }
}

/** Every pool of the deployment with its price now: V2 pairs (from reserves), then V3 pools. */
async function readTradedPools(
  client: TraderClient,
  deployment: DexDeployment,
): Promise<TradedPool[]> {
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
  return [
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
}

interface Mover extends Omit<Stocking, 'deployment'> {
  address: Address
  nonce: number
}

/** The trader's moves, one block each, and what anvil is told of their times. */
function moverOf({ client, trader, sign, address, nonce: firstNonce }: Mover) {
  let nonce = firstNonce
  // What anvil does with the next block: the interval it adds to the last block's time, and the
  // time that gives; a step at another time sets its own.
  let interval: number | undefined
  let nextTime: number | undefined
  let lastTime: number | undefined
  let lastBlock: bigint | undefined
  const moveData = (targets: readonly PoolTarget[]) =>
    encodeFunctionData({
      abi: historyTraderAbi,
      functionName: 'move',
      args: [targets.map(({ pool, v3, targetSqrtPriceX96 }) => ({ pool, v3, targetSqrtPriceX96 }))],
    })
  const moveThrough = async (steps: readonly HistoryStep[]) => {
    const hashes: Hash[] = []
    for (const [index, { timestamp, targets }] of steps.entries()) {
      const serializedTransaction = await sign(trader, nonce, {
        to: address,
        gas: STEP_GAS,
        data: moveData(targets),
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
  const close = async () => {
    if (interval !== undefined) await removeBlockTimestampInterval(client)
    interval = undefined
    nextTime = undefined
    if (lastBlock === undefined || lastTime === undefined) return
    const { timestamp } = await getBlock(client, { blockNumber: lastBlock })
    if (Number(timestamp) !== lastTime) {
      throw new Error(`the last history move was mined at ${timestamp}, not ${lastTime}`)
    }
  }
  return { moveThrough, close }
}

/**
 * Deploys HistoryTrader.sol from a fresh account (index 50 of anvil's public mnemonic, so the
 * demo account's nonce and balances stay as the deployment left them) and stocks it with each
 * token (INVENTORY_USD at catalog prices, at most half the deployer's balance) and the wrapped
 * native coin: a few blocks at the devnet's current time. Reads every pool's price as the base
 * of its moves.
 */
export async function setUpHistoryTrader(deployment: DexDeployment): Promise<HistoryTrader> {
  const client = traderClient(deployment.rpcUrl)
  const trader = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: TRADER_ADDRESS_INDEX })
  const sign = signerOf(deployment.chainId)
  const { address, nonce } = await deployAndStock({ client, deployment, trader, sign })
  const pools = await readTradedPools(client, deployment)
  const { moveThrough, close } = moverOf({ client, trader, sign, address, nonce })
  return {
    address,
    pools,
    async moveAt(timestamp, targets) {
      const [hash] = await moveThrough([{ timestamp, targets }])
      if (!hash) throw new Error('no history move was sent')
      return hash
    },
    moveThrough,
    close,
  }
}
