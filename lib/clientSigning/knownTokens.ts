import { type Address, getAddress, isAddressEqual } from 'viem'
import { chainOf } from '../chain/clients'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { isNative } from '../constants'
import { findCatalogTokens } from '../db/project'
import { Unprocessable } from '../errors'

/** The tokens client-signed transactions may call: the catalog's and the network's own. */
export interface KnownTokens {
  /** A catalog token, one of the network's base tokens (wrapped coin, stablecoin), or the coin. */
  isKnown(address: Address): boolean
  /** The catalog symbol (the coin's symbol for the sentinel), else the checksummed address. */
  label(address: Address): string
  /** The catalog's decimals (18 for the coin); undefined for a token outside the catalog. */
  decimals(address: Address): number | undefined
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
    decimals: (address) => (isNative(address) ? 18 : catalog.get(address.toLowerCase())?.decimals),
  }
}

/**
 * readKnownTokens, refusing (422) the first of `addresses` the service does not know, before any
 * chain call (DECISIONS §8.2): a contract outside the catalog runs no code for a prepare route.
 */
export async function requireKnownTokens(
  network: NetworkName,
  addresses: readonly Address[],
): Promise<KnownTokens> {
  const tokens = await readKnownTokens(network, addresses)
  const unknown = addresses.find((address) => !tokens.isKnown(address))
  if (unknown) {
    throw new Unprocessable(
      `${getAddress(unknown)} is not a catalog token on ${network}: the service prepares transactions of catalog tokens only (the {key} routes take any token)`,
    )
  }
  return tokens
}
