import { type Address, isAddressEqual } from 'viem'

/** The address that stands for a network's native coin wherever a token address is taken. */
export const NATIVE_COIN: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

export function isNative(address: Address): boolean {
  return isAddressEqual(address, NATIVE_COIN)
}

/** The token the router trades for `address`: the wrapped native coin stands in for the coin. */
export function routerToken(address: Address, wrappedNative: Address): Address {
  return isNative(address) ? wrappedNative : address
}
