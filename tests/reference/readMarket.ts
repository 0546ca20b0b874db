import type { Address } from 'viem'
import { tokenAbi, v2FactoryEvents, v2PairAbi, v3FactoryEvents, v3PoolAbi } from './chainAbis'
import { MAX_TICK, MIN_TICK } from './fastPoolMath'
import type { OwnDevnetClient } from './ownDevnet'
import {
  lower,
  type PoolState,
  type TickEntry,
  type V2PoolInfo,
  type V3PoolInfo,
  type V3State,
} from './poolTypes'

// Pools found and read the way an outsider would: the factories' creation logs, then each
// pool's own getters at one block; V3 ticks whole, word by word of the tick bitmap. Nothing
// here goes through the service's PoolLens, readPools or lib/routing/pools.

export interface FoundPools {
  v2: Omit<V2PoolInfo, 'feeBps'>[]
  v3: V3PoolInfo[]
}

/** Every pair and pool the factories created whose two tokens are both in `tokens`. */
export async function discoverPools(
  client: OwnDevnetClient,
  {
    v2Factory,
    v3Factory,
    tokens,
  }: { v2Factory: Address; v3Factory: Address; tokens: readonly Address[] },
): Promise<FoundPools> {
  const known = new Set(tokens.map(lower))
  const [pairLogs, poolLogs] = await Promise.all([
    client.getLogs({
      address: v2Factory,
      event: v2FactoryEvents[0],
      fromBlock: 0n,
      toBlock: 'latest',
    }),
    client.getLogs({
      address: v3Factory,
      event: v3FactoryEvents[0],
      fromBlock: 0n,
      toBlock: 'latest',
    }),
  ])
  const inCatalog = (a?: string, b?: string) =>
    a !== undefined && b !== undefined && known.has(lower(a)) && known.has(lower(b))
  const v2 = pairLogs.flatMap(({ args }) =>
    inCatalog(args.token0, args.token1) && args.pair
      ? [
          {
            protocol: 'v2' as const,
            address: lower(args.pair),
            token0: lower(args.token0 as string),
            token1: lower(args.token1 as string),
          },
        ]
      : [],
  )
  const v3 = poolLogs.flatMap(({ args }) =>
    inCatalog(args.token0, args.token1) &&
    args.pool &&
    args.fee !== undefined &&
    args.tickSpacing !== undefined
      ? [
          {
            protocol: 'v3' as const,
            address: lower(args.pool),
            token0: lower(args.token0 as string),
            token1: lower(args.token1 as string),
            fee: args.fee,
            tickSpacing: args.tickSpacing,
          },
        ]
      : [],
  )
  if (v2.length === 0 || v3.length === 0) {
    throw new Error(`the factories' logs name ${v2.length} V2 pairs and ${v3.length} V3 pools`)
  }
  return { v2, v3 }
}

/** Every initialized tick of a pool at a block: each bitmap word, then each set bit's tick. */
async function readTicks(
  client: OwnDevnetClient,
  pool: V3PoolInfo,
  blockNumber: bigint,
): Promise<TickEntry[]> {
  const spacing = pool.tickSpacing
  const firstWord = Math.floor(MIN_TICK / spacing) >> 8
  const lastWord = Math.floor(MAX_TICK / spacing) >> 8
  const words: number[] = []
  for (let word = firstWord; word <= lastWord; word += 1) words.push(word)
  const bitmaps = await Promise.all(
    words.map((word) =>
      client.readContract({
        address: pool.address,
        abi: v3PoolAbi,
        functionName: 'tickBitmap',
        args: [word],
        blockNumber,
      }),
    ),
  )
  const indexes: number[] = []
  bitmaps.forEach((bitmap, position) => {
    const word = words[position] as number
    for (let bit = 0; bitmap >> BigInt(bit) !== 0n; bit += 1) {
      if ((bitmap >> BigInt(bit)) & 1n) indexes.push((word * 256 + bit) * spacing)
    }
  })
  const infos = await Promise.all(
    indexes.map((tick) =>
      client.readContract({
        address: pool.address,
        abi: v3PoolAbi,
        functionName: 'ticks',
        args: [tick],
        blockNumber,
      }),
    ),
  )
  return indexes
    .map((index, position) => ({ index, liquidityNet: (infos[position] as [bigint, bigint])[1] }))
    .sort((a, b) => a.index - b.index)
}

async function readV3State(
  client: OwnDevnetClient,
  pool: V3PoolInfo,
  blockNumber: bigint,
): Promise<V3State> {
  const read = <Name extends 'slot0' | 'liquidity' | 'fee' | 'tickSpacing'>(functionName: Name) =>
    client.readContract({ address: pool.address, abi: v3PoolAbi, functionName, blockNumber })
  const [[sqrtPriceX96, tick], liquidity, fee, tickSpacing, ticks] = await Promise.all([
    read('slot0'),
    read('liquidity'),
    read('fee'),
    read('tickSpacing'),
    readTicks(client, pool, blockNumber),
  ])
  if (fee !== pool.fee || tickSpacing !== pool.tickSpacing) {
    throw new Error(`${pool.address}: fee ${fee} / spacing ${tickSpacing} differ from its log`)
  }
  // The whole list or nothing: the nets sum to zero and the active ones give the pool's liquidity.
  const total = ticks.reduce((sum, entry) => sum + entry.liquidityNet, 0n)
  const active = ticks
    .filter((entry) => entry.index <= tick)
    .reduce((sum, entry) => sum + entry.liquidityNet, 0n)
  if (total !== 0n || active !== liquidity) {
    throw new Error(
      `${pool.address}: ticks read incompletely (nets sum ${total}, active ${active} vs liquidity ${liquidity})`,
    )
  }
  return { sqrtPriceX96, tick, liquidity, ticks }
}

export interface MarketSnapshot {
  blockNumber: bigint
  states: Map<Address, PoolState>
  /** Each pool's holding of each of its tokens: pool → token → balance. */
  balances: Map<Address, Map<Address, bigint>>
}

/** Every pool's state and holdings at one block. */
export async function readMarket(
  client: OwnDevnetClient,
  pools: { v2: readonly V2PoolInfo[]; v3: readonly V3PoolInfo[] },
  blockNumber: bigint,
): Promise<MarketSnapshot> {
  const states = new Map<Address, PoolState>()
  const balances = new Map<Address, Map<Address, bigint>>()
  await Promise.all([
    ...pools.v2.map(async (pool) => {
      const [[reserve0, reserve1], balance0, balance1] = await Promise.all([
        client.readContract({
          address: pool.address,
          abi: v2PairAbi,
          functionName: 'getReserves',
          blockNumber,
        }),
        ...[pool.token0, pool.token1].map((token) =>
          client.readContract({
            address: token,
            abi: tokenAbi,
            functionName: 'balanceOf',
            args: [pool.address],
            blockNumber,
          }),
        ),
      ])
      states.set(pool.address, {
        reserve0,
        reserve1,
        surplus0: (balance0 as bigint) - reserve0,
        surplus1: (balance1 as bigint) - reserve1,
      })
      balances.set(
        pool.address,
        new Map([
          [pool.token0, reserve0],
          [pool.token1, reserve1],
        ]),
      )
    }),
    ...pools.v3.map(async (pool) => {
      const [state, balance0, balance1] = await Promise.all([
        readV3State(client, pool, blockNumber),
        ...[pool.token0, pool.token1].map((token) =>
          client.readContract({
            address: token,
            abi: tokenAbi,
            functionName: 'balanceOf',
            args: [pool.address],
            blockNumber,
          }),
        ),
      ])
      states.set(pool.address, state)
      balances.set(
        pool.address,
        new Map([
          [pool.token0, balance0 as bigint],
          [pool.token1, balance1 as bigint],
        ]),
      )
    }),
  ])
  return { blockNumber, states, balances }
}
