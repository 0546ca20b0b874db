import { type Address, isAddressEqual } from 'viem'

// Fixed values every layer shares: schemas validate with them, lib acts on them, the table stores
// them. Neutral (imports only viem), so neither side has to import the other.

/** The address that stands for a network's native coin wherever a token address is taken. */
export const NATIVE_COIN: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

export function isNative(address: Address): boolean {
  return isAddressEqual(address, NATIVE_COIN)
}

/**
 * Routes one swap splits over, at most (DECISIONS §8.1): the search's bound
 * (lib/routing/search/searchSplit.ts) and the quote result's (schemas/swap.ts), defined once.
 */
export const MAX_SPLIT_ROUTES = 4

/** The 20 minutes of a quote's calldata, and the default of an executed swap. */
export const DEFAULT_DEADLINE_SECONDS = 20 * 60

/**
 * The range a sign-in nonce is within, a safe integer (the result schema bounds it too): the
 * service issues 16-digit ones from 2^52 up (lib/auth/mintNonce.ts); earlier ones had 12 to 15.
 */
export const SIWE_NONCE_RANGE = { min: 100_000_000_000, max: Number.MAX_SAFE_INTEGER } as const

/** The links a project may have, in the interface's order (a catalog entry and a project alike). */
export const SOCIAL_LINKS = [
  'website',
  'explorer',
  'twitter',
  'facebook',
  'instagram',
  'telegram',
  'discord',
  'reddit',
  'youtube',
  'github',
  'medium',
] as const
