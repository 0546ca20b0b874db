import { getBlock } from 'viem/actions'
import type { ChainClient } from './clients'
import { findBlockAtTime } from './findBlockAtTime'

export interface BlockTime {
  number: bigint
  /** Unix seconds. */
  timestamp: bigint
}

export interface FindBlockBeforeParameters {
  /** Unix seconds. */
  timestamp: bigint
  /** The head to search below. */
  latest: BlockTime
}

/**
 * The last block whose timestamp is before `timestamp`: its state held from its own time until
 * `timestamp` (the next block came at or after it). The head when no block is that late yet;
 * undefined when genesis is not before it. findBlockAtTime's reads and, below the head, one more.
 */
export async function findBlockBefore(
  client: ChainClient,
  { timestamp, latest }: FindBlockBeforeParameters,
): Promise<BlockTime | undefined> {
  if (latest.timestamp < timestamp) return latest
  const first = await findBlockAtTime(client, { timestamp, latest })
  if (first === 0n) return undefined
  const block = await getBlock(client, { blockNumber: first - 1n })
  return { number: block.number, timestamp: block.timestamp }
}
