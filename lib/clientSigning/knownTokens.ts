import { type Address, getAddress, isAddressEqual } from 'viem'
import { chainOf } from '../chain/clients'
import { loadChainConfig, type NetworkName } from '../config'
import { isNative } from '../constants'
import { findCatalogTokens } from '../db/project'

/** The tokens client-signed transactions may call: the catalog's and the network's own. */
export interface KnownTokens {
  /** A catalog token, one of the network's base tokens (wrapped coin, stablecoin), or the coin. */
  isKnown(address: Address): boolean
  /** The catalog symbol (the coin's symbol for the sentinel), else the checksummed address. */
  label(address: Address): string
}

/** Which of `addresses` the service knows on `network`: one BatchGetItem of the catalog. */
export async function readKnownTokens(
  network: NetworkName,
  addresses: readonly Address[],
): Promise<KnownTokens> {
  const config = loadChainConfig(network)
  const tokens = addresses.filter((address) => !isNative(address))
  const catalog = await findCatalogTokens(network, tokens)
  const own = [config.wrappedNative, config.usdStablecoin, ...config.baseTokens]
  return {
    isKnown: (address) =>
      isNative(address) ||
      catalog.has(address.toLowerCase()) ||
      own.some((token) => isAddressEqual(token, address)),
    label: (address) =>
      isNative(address)
        ? chainOf(config).nativeCurrency.symbol
        : (catalog.get(address.toLowerCase())?.symbol ?? getAddress(address)),
  }
}
