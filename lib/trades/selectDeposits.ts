import type { Address } from 'viem'
import type { ChainClient } from '../chain/clients'
import { loadDepositConfig } from '../config/depositConfig'
import { NATIVE_COIN } from '../constants'
import { findCounterpartiesLike } from '../db/counterparties'
import { depositId, findRecordedDeposits } from '../db/depositRecords'
import type { CatalogTokenValue } from '../db/project'
import { findKnownWallets } from '../db/wallet'
import { logger } from '../logger'
import type { NetworkName } from '../networkNames'
import {
  isGenuineTransfer,
  listsFirst,
  posesAsCounterparty,
  type TokenScale,
  tokenScale,
} from './classifyTransfers'
import { shareFairly } from './fairShare'
import { tokenDecimals } from './tokenDecimals'
import type { IncomingTransfer } from './transferSources'

// The transfers of a run that are deposits to record (DECISIONS §8.2, §9.1, §10.4): genuine, not
// dust (weighed first, from the log alone: a dust flood costs its reads and nothing else), into a
// known wallet, within the wallet's fair share of the run's transfer budget, not from a look-alike
// of the wallet's counterparties, and not recorded yet (their markers, read). Grouped by wallet.

export interface Candidate {
  transfer: IncomingTransfer
  /** The token's decimals (18 for the native coin), for the amount in whole units. */
  decimals: number
  /** The token had no path price: listed, flagged. */
  unpriced: boolean
}

export interface WalletCandidates {
  wallet: Address
  /** Native value (never left for a later run: it cannot be read back by recipient). */
  natives: Candidate[]
  /**
   * Token deposits within the wallet's share, not recorded yet: those worth DEPOSIT_FIRST_USD or
   * more (or unpriced) first, then the smaller ones, each in chain order.
   */
  tokens: Candidate[]
  /** The wallet's first token deposit beyond its share (chain order), left for a later run. */
  firstBeyond?: IncomingTransfer
  /** How many token deposits are beyond its share. */
  beyond: number
}

export interface Selection {
  /** By lower-cased wallet. */
  wallets: Map<string, WalletCandidates>
  /** Transfers worth less than the dust threshold (to anyone): counted, not listed. */
  dust: number
  /** Transfers from look-alikes of an address the wallet sent to. */
  lookAlikes: number
  /** Deposits found recorded already (a range scanned again). */
  recordedBefore: number
}

export interface SelectDepositsParameters {
  /** The forward scan's transfers (to anyone). */
  scanned: readonly IncomingTransfer[]
  /** Lagging wallets' own transfers (to known wallets, by construction). */
  lagging: readonly IncomingTransfer[]
  catalog: readonly CatalogTokenValue[]
  /** Path prices by lower-cased token address (NATIVE_COIN's too), USD per whole token, E18. */
  prices: ReadonlyMap<string, bigint>
  /** Token deposits weighed past the dust floor a run keeps, shared fairly among wallets. */
  transfers: number
}

/** Transfers in chain order: block, then log index (native value first in its transaction). */
export function chainOrder(a: IncomingTransfer, b: IncomingTransfer): number {
  if (a.block.number !== b.block.number) return a.block.number < b.block.number ? -1 : 1
  const place = (transfer: IncomingTransfer) =>
    typeof transfer.place === 'number' ? transfer.place : -1
  return place(a) - place(b)
}

/** Each token's decimals and scale (tokens without decimals() are absent: skipped, logged). */
async function scalesOf(
  client: ChainClient,
  network: NetworkName,
  tokens: readonly Address[],
  { catalog, prices }: Pick<SelectDepositsParameters, 'catalog' | 'prices'>,
): Promise<Map<Address, { decimals: number; scale: TokenScale }>> {
  const config = loadDepositConfig()
  const minimums = new Map(catalog.map((token) => [token.address.toLowerCase(), token.dustMinimum]))
  const entries = await Promise.all(
    tokens.map(async (token) => {
      const decimals = token === NATIVE_COIN ? 18 : await tokenDecimals(client, network, token)
      if (decimals === undefined) {
        logger.warn('deposit skipped: token without decimals()', { network, token })
        return []
      }
      const key = token.toLowerCase()
      const value = { priceE18: prices.get(key), dustMinimum: minimums.get(key) }
      return [[token, { decimals, scale: tokenScale(value, decimals, config) }] as const]
    }),
  )
  return new Map(entries.flat())
}

/** The same transfer twice (a lag's range scanned again, or read by both reads): once. */
function distinct(network: NetworkName, transfers: readonly IncomingTransfer[]) {
  const seen = new Set<string>()
  return transfers.filter((transfer) => {
    const id = depositId({ network, ...transfer })
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}

/**
 * Groups deposits by wallet: native value whole; token deposits cut at the wallet's fair share of
 * `transfers` in chain order (the rest waits in its lag), then ranked, larger ones first.
 */
function groupByWallet(
  deposits: readonly IncomingTransfer[],
  scales: ReadonlyMap<Address, { decimals: number; scale: TokenScale }>,
  transfers: number,
): Map<string, WalletCandidates> {
  const wallets = new Map<string, WalletCandidates>()
  for (const transfer of deposits.toSorted(chainOrder)) {
    const key = transfer.to.toLowerCase()
    const entry = wallets.get(key) ?? { wallet: transfer.to, natives: [], tokens: [], beyond: 0 }
    wallets.set(key, entry)
    const scale = scales.get(transfer.token)
    const candidate = {
      transfer,
      decimals: scale?.decimals ?? 18,
      unpriced: scale?.scale.unpriced ?? false,
    }
    if (typeof transfer.place === 'number') entry.tokens.push(candidate)
    else entry.natives.push(candidate)
  }
  const natives = [...wallets.values()].reduce((sum, entry) => sum + entry.natives.length, 0)
  const shares = shareFairly(
    new Map([...wallets].map(([key, entry]) => [key, entry.tokens.length])),
    transfers - natives,
  )
  const first = ({ transfer }: Candidate) => {
    const scale = scales.get(transfer.token)?.scale
    return scale !== undefined && listsFirst(transfer.value, scale)
  }
  for (const [key, entry] of wallets) {
    const kept = entry.tokens.slice(0, shares.get(key) ?? 0)
    entry.firstBeyond = entry.tokens[kept.length]?.transfer
    entry.beyond = entry.tokens.length - kept.length
    entry.tokens = [...kept.filter(first), ...kept.filter((candidate) => !first(candidate))]
  }
  return wallets
}

export async function selectDeposits(
  client: ChainClient,
  network: NetworkName,
  parameters: SelectDepositsParameters,
): Promise<Selection> {
  const { scanned, lagging, catalog, prices, transfers } = parameters
  const catalogTokens = new Set(catalog.map((token) => token.address))
  const genuine = distinct(network, [...lagging, ...scanned]).filter((transfer) =>
    isGenuineTransfer(transfer, catalogTokens),
  )
  const tokens = [...new Set(genuine.map((transfer) => transfer.token))]
  const scales = await scalesOf(client, network, tokens, { catalog, prices })

  // Dust first: weighed from the log alone, before any read of the table.
  let dust = 0
  const worth = genuine.filter((transfer) => {
    const scale = scales.get(transfer.token)?.scale
    if (scale === undefined) return false
    if (transfer.value >= scale.floor) return true
    dust += 1
    return false
  })
  const laggingIds = new Set(lagging.map((transfer) => depositId({ network, ...transfer })))
  const fromScan = worth.filter((transfer) => !laggingIds.has(depositId({ network, ...transfer })))
  const known = await findKnownWallets(fromScan.map((transfer) => transfer.to))
  const into = worth.filter(
    (transfer) =>
      laggingIds.has(depositId({ network, ...transfer })) || known.has(transfer.to.toLowerCase()),
  )
  const wallets = groupByWallet(into, scales, transfers)

  // Look-alikes of the addresses each wallet has sent to, among what the shares kept.
  const kept = [...wallets.values()].flatMap((entry) => [...entry.natives, ...entry.tokens])
  const pairOf = ({ transfer }: Candidate) => ({ wallet: transfer.to, sender: transfer.from })
  const sentToLike = await findCounterpartiesLike(kept.map(pairOf))
  let lookAlikes = 0
  const genuineSender = (candidate: Candidate) => {
    const poses = posesAsCounterparty(candidate.transfer.from, sentToLike(pairOf(candidate)))
    if (poses) lookAlikes += 1
    return !poses
  }

  // Recorded already: one marker read each, for what the shares kept.
  const recorded = await findRecordedDeposits(
    kept.map(({ transfer }) => ({ network, hash: transfer.hash, place: transfer.place })),
  )
  const fresh = (candidate: Candidate) =>
    !recorded.has(depositId({ network, ...candidate.transfer })) && genuineSender(candidate)
  for (const entry of wallets.values()) {
    entry.natives = entry.natives.filter(fresh)
    entry.tokens = entry.tokens.filter(fresh)
  }
  return { wallets, dust, lookAlikes, recordedBefore: recorded.size }
}
