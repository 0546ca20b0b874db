// DEMO DATA for the local devnets only: a year of invented price moves, traded for real on the
// devnet's pools, so the price history has something to show on a fresh `npm start`.

import { type Address, createTestClient } from 'viem'
import { getBlock, setNextBlockBaseFeePerGas } from 'viem/actions'
import { nodeHttp } from '../chain/nodeHttpTransport'
import type { DexDeployment } from './deployDex'
import { dailyVolatilityOf, DAY, historySchedule, priceFactors, scaleBySqrt } from './historyPrices'
import { type HistoryStep, setUpHistoryTrader, type TradedPool } from './historyTrader'

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

/** Each token's price factor at each scheduled step (1 for a token of no invented price). */
function tokenFactors(deployment: DexDeployment, times: readonly number[]) {
  const symbolOf = new Map<string, string>([
    [deployment.wrappedNative.toLowerCase(), 'native'],
    [deployment.usdStablecoin.toLowerCase(), 'USDC'],
    ...[...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo].map(
      (token): [string, string] => [token.address.toLowerCase(), token.symbol],
    ),
  ])
  const factorsOf = new Map(
    [...new Set(symbolOf.values())].map((symbol) => [
      symbol,
      priceFactors(`${deployment.network}:${symbol}`, times, dailyVolatilityOf(symbol)),
    ]),
  )
  return (token: Address, step: number) =>
    factorsOf.get(symbolOf.get(token.toLowerCase()) ?? '')?.[step] ?? 1
}

/** One step per scheduled time, each moving every pool to the invented prices of that time. */
function historySteps(
  deployment: DexDeployment,
  pools: readonly TradedPool[],
  times: readonly number[],
): HistoryStep[] {
  const factor = tokenFactors(deployment, times)
  return times.map((at, step) => ({
    timestamp: at,
    targets: pools.map((pool) => ({
      pool: pool.address,
      v3: pool.v3,
      // price0 / price1 moves the pool's price (token1 per token0) by their ratio.
      targetSqrtPriceX96: scaleBySqrt(
        pool.sqrtPriceX96,
        factor(pool.token0, step) / factor(pool.token1, step),
      ),
    })),
  }))
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
  const times = historySchedule(Number(genesis.timestamp), now)
  try {
    await trader.moveThrough(historySteps(deployment, trader.pools, times))
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
