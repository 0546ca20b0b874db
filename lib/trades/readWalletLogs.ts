import type { Address } from 'viem'
import type { ChainClient } from '../chain/clients'
import { inChunks } from '../chain/splitReads'
import { FILTER_RECIPIENTS_MAX } from '../chain/transferLogs'
import { type IncomingTransfer, readTokenTransfers } from './transferSources'

// The forward scan's reads once a run has read its share of logs unfiltered (DECISIONS §10.4):
// the rest of a range asked for known wallets only (topic 2, 1,000 a query), so neither logs to
// strangers nor the wallets a flood is aimed at (left out, each with a lag from here) cost more
// reads, and the cursor moves on for every other wallet.

/** A filtered phase stops after this share of the run's read budget... */
const PHASE_SHARE = 4
/** ...and a wallet that took this share of the budget in it is left out of the next phase. */
const HEAVY_SHARE = 16
/** Phases a window may take; then the scan stops there (as it did before issue 39). */
const MAX_PHASES = 4

export interface WalletLogsParameters {
  fromBlock: bigint
  toBlock: bigint
  maxRange: bigint
  tokens: readonly Address[]
  /** Every known wallet, lower-cased. */
  knownWallets: () => Promise<readonly Address[]>
  /** The run's read budget (DEPOSIT_RUN_READS). */
  reads: number
  /** Wallets left out so far (lower-cased), with the block from which they were. */
  leftOut: Map<string, { wallet: Address; fromBlock: bigint }>
}

/** Transfers per lower-cased recipient. */
function countByRecipient(transfers: readonly IncomingTransfer[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const { to } of transfers) {
    const key = to.toLowerCase()
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** One phase: the range for `recipients`, 1,000 a query, until `allowance` logs were read. */
async function readPhase(
  client: ChainClient,
  parameters: WalletLogsParameters,
  recipients: readonly Address[],
  allowance: number,
): Promise<{ transfers: IncomingTransfer[]; readTo: bigint }> {
  const { fromBlock, toBlock, maxRange, tokens } = parameters
  const transfers: IncomingTransfer[] = []
  let readTo = toBlock
  for (const chunk of inChunks(recipients, FILTER_RECIPIENTS_MAX)) {
    const answer = await readTokenTransfers(client, {
      fromBlock,
      toBlock: readTo,
      maxRange,
      tokens,
      recipients: chunk,
      knownWallets: () => Promise.resolve(chunk),
      more: (read) => transfers.length + read < allowance,
    })
    for (const transfer of answer.transfers) transfers.push(transfer)
    if (answer.readTo < readTo) readTo = answer.readTo
    if (readTo < fromBlock) break
  }
  // Whole blocks only: what a chunk read past the shortest is read again by the next phase.
  return { transfers: transfers.filter((transfer) => transfer.block.number <= readTo), readTo }
}

/**
 * The token transfers of [fromBlock, toBlock] into known wallets not left out, in phases: each
 * reads at most a quarter of the run's read budget, and a phase cut short leaves out the wallets
 * that took a sixteenth of the budget in it (a lag each, from the phase's first block unread)
 * before the next goes on from the last block it read whole. Stops after MAX_PHASES phases, or a
 * phase cut short with no wallet to leave out (many wallets flooded at once): `readTo` then says
 * where. Returns the transfers and the phases' reads.
 */
export async function readWalletLogs(
  client: ChainClient,
  parameters: WalletLogsParameters,
): Promise<{ transfers: IncomingTransfer[]; readTo: bigint }> {
  const { toBlock, reads, leftOut } = parameters
  const known = await parameters.knownWallets()
  const transfers: IncomingTransfer[] = []
  let fromBlock = parameters.fromBlock
  for (let phase = 0; phase < MAX_PHASES && fromBlock <= toBlock; phase += 1) {
    const recipients = known.filter((wallet) => !leftOut.has(wallet.toLowerCase()))
    if (recipients.length === 0) return { transfers, readTo: toBlock }
    const read = await readPhase(
      client,
      { ...parameters, fromBlock },
      recipients,
      Math.ceil(reads / PHASE_SHARE),
    )
    for (const transfer of read.transfers) transfers.push(transfer)
    if (read.readTo >= toBlock) return { transfers, readTo: toBlock }
    const heavy = [...countByRecipient(read.transfers)].filter(
      ([, count]) => count * HEAVY_SHARE >= reads,
    )
    if (heavy.length === 0) return { transfers, readTo: read.readTo }
    for (const [key] of heavy) {
      const wallet = recipients.find((candidate) => candidate.toLowerCase() === key)
      if (wallet) leftOut.set(key, { wallet, fromBlock: read.readTo + 1n })
    }
    fromBlock = read.readTo + 1n
  }
  return { transfers, readTo: fromBlock - 1n }
}

/**
 * The known wallets (lower-cased) that took a sixteenth of the run's read budget among
 * `transfers`: left out of the filtered reads that follow an unfiltered read cut short.
 */
export function heavyRecipients(
  transfers: readonly IncomingTransfer[],
  known: ReadonlySet<string>,
  reads: number,
): string[] {
  return [...countByRecipient(transfers)]
    .filter(([key, count]) => known.has(key) && count * HEAVY_SHARE >= reads)
    .map(([key]) => key)
}
