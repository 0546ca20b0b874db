import type { Address } from 'viem'
import { isNative } from '../constants'

/** The token the router trades for `address`: the wrapped native coin stands in for the coin. */
export function routerToken(address: Address, wrappedNative: Address): Address {
  return isNative(address) ? wrappedNative : address
}
