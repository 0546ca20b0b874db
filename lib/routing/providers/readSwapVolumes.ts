import { getLogs } from 'viem/actions'
import { uniswapV2PairEventsAbi, uniswapV3PoolEventsAbi } from '../../chain/abis'
import type { ChainClient } from '../../chain/clients'
import type { Pool } from '../pools/pool'

/** A pool whose swaps are counted: what the lens reader (readPools) tells of it. */
export type VolumePool = Pick<Pool, 'protocol' | 'address' | 'token0' | 'token1'>

export interface ReadSwapVolumesParameters {
  /** V2 pairs and V3 pools, as readPools finds them. */
  pools: readonly VolumePool[]
  fromBlock: bigint
  toBlock: bigint
  /** Blocks per `eth_getLogs` call; nodes cap the range. */
  maxBlockRange?: bigint
}

const DEFAULT_MAX_BLOCK_RANGE = 5_000n

const abs = (value: bigint) => (value < 0n ? -value : value)

/**
 * Base units of each token swapped on `pools` between two blocks (inclusive), from the V2 pairs'
 * and the V3 pools' `Swap` events (one `eth_getLogs` a block range for both kinds): a swap counts
 * the token's side once, in or out (a V2 pair's in and out amounts, a V3 pool's signed amount).
 * Keys are lower-cased addresses.
 */
export async function readSwapVolumes(
  client: ChainClient,
  { pools, fromBlock, toBlock, maxBlockRange = DEFAULT_MAX_BLOCK_RANGE }: ReadSwapVolumesParameters,
): Promise<Map<string, bigint>> {
  const volumes = new Map<string, bigint>()
  if (pools.length === 0 || fromBlock > toBlock) return volumes
  const byAddress = new Map(pools.map((pool) => [pool.address.toLowerCase(), pool]))
  const add = (token: string, amount: bigint) =>
    volumes.set(token.toLowerCase(), (volumes.get(token.toLowerCase()) ?? 0n) + amount)
  for (let start = fromBlock; start <= toBlock; start += maxBlockRange) {
    const end = start + maxBlockRange - 1n < toBlock ? start + maxBlockRange - 1n : toBlock
    const logs = await getLogs(client, {
      address: pools.map((pool) => pool.address),
      events: [uniswapV2PairEventsAbi[0], uniswapV3PoolEventsAbi[0]],
      fromBlock: start,
      toBlock: end,
      strict: true,
    })
    for (const log of logs) {
      const pool = byAddress.get(log.address.toLowerCase())
      if (!pool) continue
      // Both events are named Swap: the arguments tell them apart (their topics differ).
      const { args } = log
      if ('amount0In' in args) {
        add(pool.token0, args.amount0In + args.amount0Out)
        add(pool.token1, args.amount1In + args.amount1Out)
      } else {
        add(pool.token0, abs(args.amount0))
        add(pool.token1, abs(args.amount1))
      }
    }
  }
  return volumes
}
