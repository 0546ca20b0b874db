import { getBlock, getTransactionCount } from 'viem/actions'
import { type Address, hexToBigInt } from 'viem'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../networkNames'

export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

export interface SendContext extends Fees {
  /** The sender's next nonce, pending transactions counted. */
  nonce: number
  /** The latest block's time, epoch seconds: deadlines count from it or the clock, the later. */
  timestamp: bigint
  /** The latest block: the state a transfer's preview is simulated on. */
  blockNumber: bigint
}

/**
 * What signing needs from the node: the latest block (base fee, time), the sender's pending
 * nonce and the suggested tip. Three RPC calls issued together. The fee cap is twice the base fee
 * plus the tip, so it holds while the base fee rises for a few blocks.
 */
export async function readSendContext(network: NetworkName, sender: Address): Promise<SendContext> {
  const client = publicClient(network)
  const [block, nonce, tip] = await Promise.all([
    onChain(network, () => getBlock(client, { blockTag: 'latest' })),
    onChain(network, () => getTransactionCount(client, { address: sender, blockTag: 'pending' })),
    onChain(network, () => client.request({ method: 'eth_maxPriorityFeePerGas' })),
  ])
  const maxPriorityFeePerGas = hexToBigInt(tip)
  return {
    nonce,
    maxPriorityFeePerGas,
    maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + maxPriorityFeePerGas,
    timestamp: block.timestamp,
    blockNumber: block.number,
  }
}
