import { getBlock } from 'viem/actions'
import type { ChainClient } from './clients'
import { blockSearch } from './findBlockBefore'

export interface FindBlockAtTimeParameters {
  /** Unix seconds. */
  timestamp: bigint
  /** The head to search below; read from the node when absent. */
  latest?: { number: bigint; timestamp: bigint }
}

/**
 * The first block whose timestamp is at or after `timestamp` (the block after the head when none
 * is): the one after the last block before it, which blockSearch finds (interpolating on block
 * times, alternating with bisection, so an uneven chain still ends in O(log n) reads).
 */
export async function findBlockAtTime(
  client: ChainClient,
  { timestamp, latest }: FindBlockAtTimeParameters,
): Promise<bigint> {
  const head = latest ?? (await getBlock(client, { blockTag: 'latest' }))
  const before = await blockSearch(client, { number: head.number, timestamp: head.timestamp })(
    timestamp,
  )
  return before === undefined ? 0n : before.number + 1n
}
