import { type Address, parseUnits } from 'viem'
import { NATIVE_COIN } from '../constants'
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

/** How the indexer weighs a token's deposits (DECISIONS §9.1, §10.4), in its base units. */
export interface TokenScale {
  /** The smallest deposit that is not dust: below it a deposit is counted, never listed. */
  floor: bigint
  /** The smallest deposit listed before a wallet's smaller ones; undefined without a price. */
  firstAt?: bigint
  /** Without a path price: every deposit from `floor` up is listed, flagged unpriced. */
  unpriced: boolean
}

/** `usd` (a decimal string) in the token's base units at `priceE18`, rounded up. */
function unitsWorth(usd: string, priceE18: bigint, decimals: number): bigint {
  const scaled = parseUnits(usd, USD_DECIMALS) * 10n ** BigInt(decimals)
  return (scaled + priceE18 - 1n) / priceE18
}

/**
 * A token's scale: with a path price (lib/db/pathPrices.ts), its floor is `dustUsd` worth of it
 * and deposits worth `firstUsd` go first. Without one, its floor is the catalog's `dustMinimum`
 * (whole units) or else one base unit: a real deposit of a token nobody priced is never hidden,
 * only flagged (an operator sets `dustMinimum` for a token whose dust floods wallets).
 */
export function tokenScale(
  token: { priceE18?: bigint; dustMinimum?: string },
  decimals: number,
  { dustUsd, firstUsd }: { dustUsd: string; firstUsd: string },
): TokenScale {
  const { priceE18 } = token
  if (priceE18 !== undefined && priceE18 > 0n) {
    return {
      floor: unitsWorth(dustUsd, priceE18, decimals),
      firstAt: unitsWorth(firstUsd, priceE18, decimals),
      unpriced: false,
    }
  }
  const minimum = token.dustMinimum === undefined ? 0n : parseUnits(token.dustMinimum, decimals)
  return { floor: minimum > 1n ? minimum : 1n, unpriced: true }
}

/** Whether a deposit of `value` is listed before a wallet's smaller ones. */
export function listsFirst(value: bigint, scale: TokenScale): boolean {
  return scale.firstAt === undefined || value >= scale.firstAt
}
