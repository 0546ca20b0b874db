import { getLogs } from 'viem/actions'
import type { ChainClient } from '../../chain/clients'
import { uniswapV2PairEventsAbi } from '../../chain/abis'
import type { DexPair } from '../../chain/findPairs'

export interface ReadSwapVolumesParameters {
  pairs: readonly DexPair[]
  fromBlock: bigint
  toBlock: bigint
  /** Blocks per `eth_getLogs` call; nodes cap the range. */
  maxBlockRange?: bigint
}

const DEFAULT_MAX_BLOCK_RANGE = 5_000n

/**
 * Base units of each token swapped on `pairs` between two blocks (inclusive), from the pairs'
 * `Swap` events: a swap counts the token's side once, in or out. Keys are lower-cased addresses.
 */
export async function readSwapVolumes(
  client: ChainClient,
  { pairs, fromBlock, toBlock, maxBlockRange = DEFAULT_MAX_BLOCK_RANGE }: ReadSwapVolumesParameters,
): Promise<Map<string, bigint>> {
  const volumes = new Map<string, bigint>()
  if (pairs.length === 0 || fromBlock > toBlock) return volumes
  const byAddress = new Map(pairs.map((pair) => [pair.address.toLowerCase(), pair]))
  const add = (token: string, amount: bigint) =>
    volumes.set(token.toLowerCase(), (volumes.get(token.toLowerCase()) ?? 0n) + amount)
  for (let start = fromBlock; start <= toBlock; start += maxBlockRange) {
    const end = start + maxBlockRange - 1n < toBlock ? start + maxBlockRange - 1n : toBlock
    const logs = await getLogs(client, {
      address: pairs.map((pair) => pair.address),
      event: uniswapV2PairEventsAbi[0],
      fromBlock: start,
      toBlock: end,
      strict: true,
    })
    for (const log of logs) {
      const pair = byAddress.get(log.address.toLowerCase())
      if (!pair) continue
      const { amount0In, amount0Out, amount1In, amount1Out } = log.args
      add(pair.token0, amount0In + amount0Out)
      add(pair.token1, amount1In + amount1Out)
    }
  }
  return volumes
}
