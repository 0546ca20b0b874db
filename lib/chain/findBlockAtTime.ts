import { getBlock } from 'viem/actions'
import type { ChainClient } from './clients'

export interface FindBlockAtTimeParameters {
  /** Unix seconds. */
  timestamp: bigint
  /** The head to search below; read from the node when absent. */
  latest?: { number: bigint; timestamp: bigint }
}

/**
 * The first block whose timestamp is at or after `timestamp` (the block after the head when none
 * is). Interpolates on block times, alternating with bisection so an uneven chain still ends in
 * O(log n) reads; on a chain with a steady block time it takes a handful of reads.
 */
export async function findBlockAtTime(
  client: ChainClient,
  { timestamp, latest }: FindBlockAtTimeParameters,
): Promise<bigint> {
  const head = latest ?? (await getBlock(client, { blockTag: 'latest' }))
  if (head.timestamp < timestamp) return head.number + 1n
  const genesis = await getBlock(client, { blockNumber: 0n })
  if (genesis.timestamp >= timestamp) return 0n
  // Invariant: time(low) < timestamp <= time(high).
  let low = 0n
  let lowTime = genesis.timestamp
  let high = head.number
  let highTime = head.timestamp
  for (let step = 0; high - low > 1n; step += 1) {
    let guess =
      step % 2 === 0 && highTime > lowTime
        ? low + ((timestamp - lowTime) * (high - low)) / (highTime - lowTime)
        : (low + high) / 2n
    if (guess <= low) guess = low + 1n
    if (guess >= high) guess = high - 1n
    const { timestamp: guessTime } = await getBlock(client, { blockNumber: guess })
    if (guessTime < timestamp) {
      low = guess
      lowTime = guessTime
    } else {
      high = guess
      highTime = guessTime
    }
  }
  return high
}
