import { erc20Abi } from 'viem'
import { readContract } from 'viem/actions'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'

const usdDecimalsOf = new Map<NetworkName, Promise<number>>()

/** The decimals of the network's USD stablecoin, read once per container (again after a failure). */
export function usdDecimals(network: NetworkName): Promise<number> {
  let decimals = usdDecimalsOf.get(network)
  if (!decimals) {
    decimals = onChain(network, () =>
      readContract(publicClient(network), {
        address: loadChainConfig(network).usdStablecoin,
        abi: erc20Abi,
        functionName: 'decimals',
      }),
    )
    decimals.catch(() => usdDecimalsOf.delete(network))
    usdDecimalsOf.set(network, decimals)
  }
  return decimals
}
