import { getBlock } from 'viem/actions'
import { BlockNotFoundError, type Hash } from 'viem'
import type { ChainClient } from './clients'

/** The canonical hash at a height, or undefined when the chain is not that long (any more). */
export async function blockHashAt(
  client: ChainClient,
  blockNumber: bigint,
): Promise<Hash | undefined> {
  try {
    return (await getBlock(client, { blockNumber })).hash ?? undefined
  } catch (error) {
    if (error instanceof BlockNotFoundError) return undefined
    throw error
  }
}
