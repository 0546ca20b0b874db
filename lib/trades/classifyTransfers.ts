import { type Address, parseUnits } from 'viem'
import { NATIVE_COIN } from '../constants'
import type { CatalogTokenValue } from '../db/project'
import type { IncomingTransfer } from './transferSources'

// What makes a transfer into a wallet a deposit it lists (DECISIONS §8.2 no fake deposits, §9.1
// dust and look-alikes of counterparties): pure rules, the reads they need come from the caller.

/**
 * Whether `a` poses as `b`: another address with the same first and last four hex digits, the
 * part of an address a wallet app shows (0x4Eb7…82a3), as an address-poisoning sender has.
 */
export function looksLike(a: Address, b: Address): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()]
  return x !== y && x.slice(2, 6) === y.slice(2, 6) && x.slice(-4) === y.slice(-4)
}

/**
 * DECISIONS §8.2: the native coin or a catalog token, a value above zero, and a sender that does
 * not pose as the recipient (address poisoning, which plants a look-alike of the wallet's own
 * address in its history for its owner to copy).
 */
export function isGenuineTransfer(
  transfer: IncomingTransfer,
  catalogTokens: ReadonlySet<Address>,
): boolean {
  if (transfer.token !== NATIVE_COIN && !catalogTokens.has(transfer.token)) return false
  return transfer.value > 0n && !looksLike(transfer.from, transfer.to)
}

/**
 * DECISIONS §9.1: whether the sender poses as one of the addresses the wallet has sent to. `sentTo`
 * holds those that look like the sender (lower-cased; lib/db/counterparties.ts): any of them but
 * the sender itself makes it a look-alike.
 */
export function posesAsCounterparty(sender: Address, sentTo: ReadonlySet<string>): boolean {
  const own = sender.toLowerCase()
  for (const address of sentTo) if (address !== own) return true
  return false
}

const USD_DECIMALS = 18

/**
 * The smallest deposit of a token that is not dust, in its base units (DECISIONS §9.1): worth
 * `dustUsd` at the catalog's price, rounded up; for a token without a price, the catalog's
 * minimum for it, or else `dustUsd` whole tokens (as if a token were worth 1 USD). A deposit
 * below it is dust, counted and not listed.
 */
export function dustFloor(
  token: Pick<CatalogTokenValue, 'priceE18' | 'dustMinimum'>,
  decimals: number,
  dustUsd: string,
): bigint {
  const dustE18 = parseUnits(dustUsd, USD_DECIMALS)
  if (token.priceE18 !== undefined && token.priceE18 > 0n) {
    const scaled = dustE18 * 10n ** BigInt(decimals)
    return (scaled + token.priceE18 - 1n) / token.priceE18
  }
  return parseUnits(token.dustMinimum ?? dustUsd, decimals)
}
