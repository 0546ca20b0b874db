import { readContract } from 'viem/actions'
import { type Address, erc20Abi } from 'viem'
import { translateChainError } from '../chain/chainError'
import type { ChainClient } from '../chain/clients'
import { ChainUnavailable } from '../errors'
import type { NetworkName } from '../networkNames'

// Token decimals never change: read once per container.
const decimalsCache = new Map<string, Promise<number | undefined>>()

/**
 * A token's `decimals()`, or undefined for a contract without one (its deposits are skipped). A
 * node that does not answer fails the run (ChainUnavailable), so the range is scanned again and
 * the token asked again then, rather than the deposit skipped and the miss cached.
 */
export function tokenDecimals(
  client: ChainClient,
  network: NetworkName,
  token: Address,
): Promise<number | undefined> {
  const key = `${network}:${token.toLowerCase()}`
  let decimals = decimalsCache.get(key)
  if (!decimals) {
    decimals = readContract(client, { address: token, abi: erc20Abi, functionName: 'decimals' })
      .then(Number)
      .catch((error: unknown) => {
        const translated = translateChainError(error, network)
        if (translated instanceof ChainUnavailable) {
          decimalsCache.delete(key)
          throw translated
        }
        return undefined
      })
    decimalsCache.set(key, decimals)
  }
  return decimals
}
