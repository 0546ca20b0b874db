import { getCode } from 'viem/actions'
import type { ChainClient } from './clients'
import type { Address } from 'viem'

export interface FindDeploymentBlockParameters {
  address: Address
  latestBlock: bigint
}

/**
 * The block in which the contract at `address` was deployed: bisection on `eth_getCode` over
 * block numbers (about log2(head) reads; historical state needs an archive node on a real chain).
 * Undefined when there is no code at the head.
 */
export async function findDeploymentBlock(
  client: ChainClient,
  { address, latestBlock }: FindDeploymentBlockParameters,
): Promise<bigint | undefined> {
  const hasCode = async (blockNumber: bigint) => {
    const code = await getCode(client, { address, blockNumber })
    return code !== undefined && code !== '0x'
  }
  if (!(await hasCode(latestBlock))) return undefined
  if (await hasCode(0n)) return 0n
  // Invariant: no code at `low`, code at `high`.
  let low = 0n
  let high = latestBlock
  while (high - low > 1n) {
    const middle = (low + high) / 2n
    if (await hasCode(middle)) high = middle
    else low = middle
  }
  return high
}
