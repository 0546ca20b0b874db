import { type Address, formatUnits, type Hash } from 'viem'
import type { ChainClient } from '../chain/clients'
import { type NewDeposit, recordDeposits } from '../db/depositRecords'
import { readTradeTails, type TradeTail, TradesNotNumbered } from '../db/tradeTail'
import { logger } from '../logger'
import { mapConcurrently } from '../mapConcurrently'
import type { NetworkName } from '../networkNames'
import { type DepositOutcome, readDepositOutcomes } from './depositOutcomes'
import { shareFairly } from './fairShare'
import type { RunBudget } from './runBudget'
import { type Candidate, chainOrder, type Selection, type WalletCandidates } from './selectDeposits'
import type { IncomingTransfer } from './transferSources'

// Recording a run's deposits (DECISIONS §9.1, §10.4): the run's deposit budget shared fairly
// among the wallets that received some, each wallet's share taken in its ranked order (larger
// deposits first) and written in batches (lib/db/depositRecords.ts).

export interface WalletOutcome {
  wallet: Address
  recorded: number
  /** The wallet's first token transfer left for a later run, if any. */
  firstLeft?: IncomingTransfer
  /** Token deposits left for a later run. */
  left: number
  /** The block of native value that could not be written in time (the cursor stays there). */
  nativeLeftAt?: bigint
}

// One wallet's deposits in turn (they share its counters); this many wallets at once.
const WALLETS_IN_PARALLEL = 16

export async function recordRunDeposits(
  client: ChainClient,
  network: NetworkName,
  selection: Selection,
  options: { budget: RunBudget; senders: ReadonlyMap<Hash, Address> },
): Promise<WalletOutcome[]> {
  const { budget, senders } = options
  const entries = [...selection.wallets.values()]
  const natives = entries.reduce((sum, entry) => sum + entry.natives.length, 0)
  // Native value first (it cannot wait: lib/trades/readLaggingTransfers.ts), then fair shares.
  const shares = shareFairly(
    new Map(entries.map((entry) => [entry.wallet, entry.tokens.length])),
    budget.limits.deposits - natives,
  )
  const chosen = entries.map((entry) => [
    ...entry.natives,
    ...entry.tokens.slice(0, shares.get(entry.wallet) ?? 0),
  ])
  const outcomes = await readDepositOutcomes(
    client,
    network,
    chosen.flat().map(({ transfer }) => transfer),
    senders,
  )
  const toRecord = chosen.map((candidates) =>
    candidates.flatMap((candidate) => {
      const deposit = depositOf(network, outcomes, candidate)
      return deposit ? [{ candidate, deposit }] : []
    }),
  )
  // Where each wallet's deposits go: their tails at once, rather than one read per wallet.
  const tails = await readTradeTails(
    entries.filter((_, index) => (toRecord[index] ?? []).length > 0).map(({ wallet }) => wallet),
  )
  return mapConcurrently(entries, WALLETS_IN_PARALLEL, (entry, index) =>
    recordWallet(network, entry, {
      candidates: chosen[index] ?? [],
      deposits: toRecord[index] ?? [],
      tail: tails.get(entry.wallet.toLowerCase()),
      budget,
    }),
  )
}

/** The deposit a candidate makes, or none (see below) once its transaction's outcome is read. */
function depositOf(
  network: NetworkName,
  outcomes: ReadonlyMap<Hash, DepositOutcome>,
  { transfer, decimals, unpriced }: Candidate,
): NewDeposit | undefined {
  const outcome = outcomes.get(transfer.hash)
  // A reverted transaction moved no value; a wallet's own transaction is its own trade (a
  // swap's output, a transfer to itself), not a deposit; a transaction mined again elsewhere
  // since the read (a reorganisation mid-run) is seen by a later run.
  if (!outcome || outcome.status !== 'successful' || outcome.from === transfer.to) return
  if (outcome.blockHash !== transfer.block.hash) return
  return {
    hash: transfer.hash,
    network,
    wallet: transfer.to,
    from: transfer.from,
    amount: formatUnits(transfer.value, decimals),
    token: transfer.token,
    place: transfer.place,
    blockNumber: outcome.blockNumber,
    blockHash: outcome.blockHash,
    gasUsed: outcome.gasUsed,
    ...(unpriced && { unpriced }),
  }
}

/**
 * Records one wallet's deposits in its order until the run's time is up; what it left: its token
 * deposits from the first not written, and the block of native value not written.
 */
async function recordWallet(
  network: NetworkName,
  entry: WalletCandidates,
  {
    candidates,
    deposits,
    tail,
    budget,
  }: {
    candidates: Candidate[]
    deposits: Array<{ candidate: Candidate; deposit: NewDeposit }>
    tail: TradeTail | undefined
    budget: RunBudget
  },
): Promise<WalletOutcome> {
  const { recorded, handled } = await recordDeposits(
    entry.wallet,
    deposits.map(({ deposit }) => deposit),
    { tail, more: () => !budget.timeUp() },
  ).catch((error: unknown) => {
    // A wallet recorded before positions (a table not migrated) must not hold the cursor and
    // every other wallet with it: its deposits are passed over, each logged, to index again
    // once `npm run trades:number` has run (docs/operations.md).
    if (!(error instanceof TradesNotNumbered)) throw error
    for (const { deposit } of deposits) {
      logger.error('deposit not recorded', { network, hash: deposit.hash, error })
    }
    return { recorded: 0, handled: deposits.length }
  })
  // What was not handled: from the first deposit not written, in the wallet's order.
  const stoppedAt = deposits[handled]?.candidate
  const firstLeftIndex = stoppedAt ? candidates.indexOf(stoppedAt) : candidates.length
  const leftNative = candidates
    .slice(firstLeftIndex)
    .find(({ transfer }) => typeof transfer.place !== 'number')
  const tokensHandled = Math.max(0, firstLeftIndex - entry.natives.length)
  // Ranked, not in chain order: the lag starts at the earliest left (those recorded after it
  // are found by their markers when its range is read again).
  const tokensLeft = entry.tokens.slice(tokensHandled).map(({ transfer }) => transfer)
  const [firstLeft] = [...tokensLeft, ...(entry.firstBeyond ? [entry.firstBeyond] : [])].sort(
    chainOrder,
  )
  return {
    wallet: entry.wallet,
    recorded,
    firstLeft,
    left: tokensLeft.length + entry.beyond,
    nativeLeftAt: leftNative?.transfer.block.number,
  }
}
