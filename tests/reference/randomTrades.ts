import fc from 'fast-check'
import { type Address, encodeFunctionData } from 'viem'
import { exactInputSingleAbi, tokenAbi, v2PairAbi, v3PoolAbi } from './chainAbis'
import type { ChainCheckLog } from './chainChecks'
import { approveAll, balanceOf, send, trader } from './devnetTrader'
import type { OwnDevnetClient } from './ownDevnet'
import type { PoolInfo, V3State } from './poolTypes'
import type { MarketSnapshot } from './readMarket'
import { sdkV2AmountOut, sdkV3Swap } from './sdkPoolMath'
import type { Delivered } from './simulateLegs'

// The random states of issue 33: seeded trades, sent as real transactions on the reference's
// own copy, that move pools apart (different amounts through different pools of one pair). Each
// trade also checks the SDKs against the chain: a V2 trade asks its pair for exactly the SDK's
// output (and one unit more must be refused), a V3 trade must deliver exactly the SDK's output.

/** One trade: which pool (an index, modulo the pools), which way, and how much of its holding. */
export interface PlannedTrade {
  pool: number
  zeroForOne: boolean
  /** log10 of the share of the pool's holding of the input token: -2 (1 %) to -0.5 (32 %). */
  logShare: number
}

const plannedTrade = fc.record({
  pool: fc.nat({ max: 1_000 }),
  zeroForOne: fc.boolean(),
  logShare: fc.double({ min: -2, max: -0.5, noNaN: true }),
})

/** The trades of one random state, the same for the same seed. */
export function planTrades(seed: number, count: number): PlannedTrade[] {
  const [plan] = fc.sample(fc.array(plannedTrade, { minLength: count, maxLength: count }), {
    seed,
    numRuns: 1,
  })
  if (!plan) throw new Error('fast-check sampled no plan')
  return plan
}

export interface TradeContext {
  client: OwnDevnetClient
  pools: readonly PoolInfo[]
  /** Pool holdings and V3 ticks (swaps leave ticks as they are). */
  snapshot: MarketSnapshot
  swapRouter: Address
  wrappedNative: Address
  delivered: Delivered
  log: ChainCheckLog
}

/** Sends the planned trades; returns one line per trade. */
export async function sendTrades(
  context: TradeContext,
  plan: readonly PlannedTrade[],
): Promise<string[]> {
  const { client, pools, snapshot } = context
  const lines: string[] = []
  for (const trade of plan) {
    const pool = pools[trade.pool % pools.length] as PoolInfo
    const [tokenIn, tokenOut] = trade.zeroForOne
      ? [pool.token0, pool.token1]
      : [pool.token1, pool.token0]
    const held = snapshot.balances.get(pool.address)?.get(tokenIn) ?? 0n
    const amountIn = (held * BigInt(Math.round(10 ** trade.logShare * 1e9))) / 1_000_000_000n
    const state = snapshot.states.get(pool.address)
    const tradable =
      state && ('sqrtPriceX96' in state ? state.sqrtPriceX96 > 0n : state.reserve0 > 0n)
    if (amountIn === 0n || !tradable) continue
    if (tokenIn === context.wrappedNative) {
      await send(client, {
        to: tokenIn,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }),
        value: amountIn,
      })
    }
    const out =
      pool.protocol === 'v2'
        ? await tradeV2(context, pool, trade.zeroForOne, tokenIn, amountIn)
        : await tradeV3(context, pool, trade.zeroForOne, tokenIn, tokenOut, amountIn)
    lines.push(`${pool.protocol} ${pool.address} ${amountIn} ${tokenIn} → ${out} ${tokenOut}`)
  }
  return lines
}

export async function tradeV2(
  { client, delivered, log }: TradeContext,
  pool: Extract<PoolInfo, { protocol: 'v2' }>,
  zeroForOne: boolean,
  tokenIn: Address,
  amountIn: bigint,
): Promise<bigint> {
  // A surplus would count as input on one side and slack on the other: synced first.
  await send(client, {
    to: pool.address,
    data: encodeFunctionData({ abi: v2PairAbi, functionName: 'sync' }),
  })
  const [reserve0, reserve1] = await client.readContract({
    address: pool.address,
    abi: v2PairAbi,
    functionName: 'getReserves',
  })
  const reserveIn = zeroForOne ? reserve0 : reserve1
  await send(client, {
    to: tokenIn,
    data: encodeFunctionData({
      abi: tokenAbi,
      functionName: 'transfer',
      args: [pool.address, amountIn],
    }),
  })
  const received = (await balanceOf(client, tokenIn, pool.address)) - reserveIn
  log.checks += 1
  if (received !== delivered(tokenIn, amountIn)) {
    log.mismatches.push(
      `${tokenIn} transfer of ${amountIn}: the pair received ${received}, the measured fee says ${delivered(tokenIn, amountIn)}`,
    )
  }
  const out = sdkV2AmountOut(pool, { reserve0, reserve1 }, zeroForOne, received)
  const swap = (amount: bigint) =>
    encodeFunctionData({
      abi: v2PairAbi,
      functionName: 'swap',
      args: [zeroForOne ? 0n : amount, zeroForOne ? amount : 0n, trader.address, '0x'],
    })
  const overpaid = await client
    .call({ account: trader.address, to: pool.address, data: swap(out + 1n) })
    .then(
      () => true,
      () => false,
    )
  log.checks += 1
  if (overpaid)
    log.mismatches.push(`V2 ${pool.address}: pays more than the SDK's ${out} for ${received}`)
  await send(client, { to: pool.address, data: swap(out) })
  return out
}

async function tradeV3(
  { client, snapshot, swapRouter, log }: TradeContext,
  pool: Extract<PoolInfo, { protocol: 'v3' }>,
  zeroForOne: boolean,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
): Promise<bigint> {
  const [[sqrtPriceX96, tick], liquidity] = await Promise.all([
    client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0' }),
    client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'liquidity' }),
  ])
  const { ticks } = snapshot.states.get(pool.address) as V3State
  const expected = await sdkV3Swap(
    pool,
    { sqrtPriceX96, tick, liquidity, ticks },
    zeroForOne,
    amountIn,
  )
  await approveAll(client, tokenIn, swapRouter)
  const before = await balanceOf(client, tokenOut, trader.address)
  await send(client, {
    to: swapRouter,
    data: encodeFunctionData({
      abi: exactInputSingleAbi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn,
          tokenOut,
          fee: pool.fee,
          recipient: trader.address,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  })
  const received = (await balanceOf(client, tokenOut, trader.address)) - before
  log.checks += 1
  if (received !== expected.amountOut) {
    log.mismatches.push(
      `V3 ${pool.address} ${amountIn} in: the pool paid ${received}, the SDK says ${expected.amountOut}`,
    )
  }
  return received
}
