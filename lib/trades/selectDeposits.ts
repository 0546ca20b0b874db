import type { Address } from 'viem'
import type { ChainClient } from '../chain/clients'
import { loadDepositConfig } from '../config'
import { NATIVE_COIN } from '../constants'
import { findCounterpartiesLike } from '../db/counterparties'
import { depositId, findRecordedDeposits } from '../db/depositRecords'
import type { CatalogTokenValue } from '../db/project'
import { findKnownWallets } from '../db/wallet'
import { logger } from '../logger'
import type { NetworkName } from '../networkNames'
import { dustFloor, isGenuineTransfer, posesAsCounterparty } from './classifyTransfers'
import { tokenDecimals } from './tokenDecimals'
import type { IncomingTransfer } from './transferSources'

// The transfers of a run that are deposits to record: genuine (DECISIONS §8.2), into a known
// wallet, not dust, not from a look-alike of the wallet's counterparties (§9.1), and not recorded
// yet (their markers, read: §9.1 "scanning again costs reads"). Grouped by wallet, in chain order.

export interface Candidate {
  transfer: IncomingTransfer
  /** The token's decimals (18 for the native coin), for the amount in whole units. */
  decimals: number
}

export interface WalletCandidates {
  wallet: Address
  /** Native value (never left for a later run: it cannot be read back by recipient). */
  natives: Candidate[]
  /** Token transfers by block and log index, not recorded yet as far as `checked` goes. */
  tokens: Candidate[]
  /** How many of `tokens`, from the first, were checked against their markers. */
  checked: number
}

export interface Selection {
  /** By lower-cased wallet. */
  wallets: Map<string, WalletCandidates>
  /** Deposits worth less than the dust threshold: counted, not listed. */
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
  /** The network's wrapped coin: its catalog price is the native coin's. */
  wrappedNative: Address
  /** Token transfers a wallet's markers are read for, at most (it records no more in a run). */
  perWallet: number
}

/** Transfers in chain order: block, then log index (native value first in its transaction). */
export function chainOrder(a: IncomingTransfer, b: IncomingTransfer): number {
  if (a.block.number !== b.block.number) return a.block.number < b.block.number ? -1 : 1
  const place = (transfer: IncomingTransfer) =>
    typeof transfer.place === 'number' ? transfer.place : -1
  return place(a) - place(b)
}

export async function selectDeposits(
  client: ChainClient,
  network: NetworkName,
  parameters: SelectDepositsParameters,
): Promise<Selection> {
  const { scanned, lagging, catalog, wrappedNative, perWallet } = parameters
  const catalogTokens = new Set(catalog.map((token) => token.address))
  const genuine = scanned.filter((transfer) => isGenuineTransfer(transfer, catalogTokens))
  const known = await findKnownWallets(genuine.map((transfer) => transfer.to))
  const seen = new Set<string>()
  const into = [
    ...genuine.filter((transfer) => known.has(transfer.to.toLowerCase())),
    ...lagging.filter((transfer) => isGenuineTransfer(transfer, catalogTokens)),
  ].filter((transfer) => {
    // The same transfer twice (a lag's range scanned again after a reorganisation): once.
    const id = depositId({ network, ...transfer })
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })

  // Dust: each token's floor from its catalog price, in its own decimals.
  const { dustUsd } = loadDepositConfig()
  const values = new Map(catalog.map((token) => [token.address.toLowerCase(), token]))
  const nativeValue = values.get(wrappedNative.toLowerCase()) ?? {}
  const tokens = [...new Set(into.map((transfer) => transfer.token))]
  const decimalsOf = new Map(
    await Promise.all(
      tokens.map(async (token) => {
        const decimals = token === NATIVE_COIN ? 18 : await tokenDecimals(client, network, token)
        return [token, decimals] as const
      }),
    ),
  )
  const floorOf = new Map(
    tokens.flatMap((token) => {
      const decimals = decimalsOf.get(token)
      if (decimals === undefined) {
        logger.warn('deposit skipped: token without decimals()', { network, token })
        return []
      }
      const value = token === NATIVE_COIN ? nativeValue : (values.get(token.toLowerCase()) ?? {})
      return [[token, dustFloor(value, decimals, dustUsd)] as const]
    }),
  )
  let dust = 0
  const worth = into.filter((transfer) => {
    const floor = floorOf.get(transfer.token)
    if (floor === undefined) return false
    if (transfer.value >= floor) return true
    dust += 1
    return false
  })

  // Look-alikes of the addresses each wallet has sent to.
  const sentToLike = await findCounterpartiesLike(
    worth.map((transfer) => ({ wallet: transfer.to, sender: transfer.from })),
  )
  let lookAlikes = 0
  const deposits = worth.filter((transfer) => {
    const poses = posesAsCounterparty(
      transfer.from,
      sentToLike({ wallet: transfer.to, sender: transfer.from }),
    )
    if (poses) lookAlikes += 1
    return !poses
  })

  const wallets = new Map<string, WalletCandidates>()
  for (const transfer of deposits.toSorted(chainOrder)) {
    const key = transfer.to.toLowerCase()
    const entry = wallets.get(key) ?? { wallet: transfer.to, natives: [], tokens: [], checked: 0 }
    wallets.set(key, entry)
    const candidate = { transfer, decimals: decimalsOf.get(transfer.token) ?? 18 }
    if (typeof transfer.place === 'number') entry.tokens.push(candidate)
    else entry.natives.push(candidate)
  }

  // Recorded already: one marker read each, for what a wallet could record in this run.
  const toCheck = [...wallets.values()].flatMap((entry) => [
    ...entry.natives,
    ...entry.tokens.slice(0, perWallet),
  ])
  const recorded = await findRecordedDeposits(
    toCheck.map(({ transfer }) => ({ network, hash: transfer.hash, place: transfer.place })),
  )
  const fresh = ({ transfer }: Candidate) => !recorded.has(depositId({ network, ...transfer }))
  for (const entry of wallets.values()) {
    const checked = entry.tokens.slice(0, perWallet).filter(fresh)
    entry.natives = entry.natives.filter(fresh)
    entry.tokens = [...checked, ...entry.tokens.slice(perWallet)]
    entry.checked = checked.length
  }
  return { wallets, dust, lookAlikes, recordedBefore: recorded.size }
}
