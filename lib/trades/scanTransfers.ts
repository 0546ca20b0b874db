import { type Address, getAddress, type Hash } from 'viem'
import type { ChainClient } from '../chain/clients'
import { heavyRecipients, readWalletLogs } from './readWalletLogs'
import type { RunBudget, StopReason } from './runBudget'
import {
  type IncomingTransfer,
  readInternalTransfers,
  readNativeTransfers,
  readTokenTransfers,
} from './transferSources'

// The indexer's forward scan (DECISIONS §9.1, §10.4, bounded work): the three transfer sources
// read together, a window of blocks at a time, until the range ends, the run's reads are spent
// or its time is nearly up. Only whole blocks count as scanned, so the cursor moves to a block.

/** Blocks read at once: four batched requests of block bodies and one eth_getLogs. */
const WINDOW_BLOCKS = 200n
/** A run reads its read budget unfiltered, then as much again for known wallets only, at most. */
const FILTERED_FACTOR = 2

export interface ScanTransfersParameters {
  fromBlock: bigint
  toBlock: bigint
  /** The widest eth_getLogs range (`<NET>_LOGS_MAX_BLOCKS`). */
  maxRange: bigint
  /** The catalog's tokens on the network: only their logs are asked (DECISIONS §8.2). */
  tokens: readonly Address[]
  /** Whether the network's internal value transfers are read (`<NET>_TRACE_INTERNAL`). */
  traceInternal: boolean
  /** Recipient filters for a block too big to read whole. */
  knownWallets: () => Promise<readonly Address[]>
  budget: RunBudget
}

export interface ScannedTransfers {
  transfers: IncomingTransfer[]
  /** The last block scanned whole; `fromBlock - 1` when none was. */
  scannedTo: bigint
  /** Each scanned block's hash. */
  hashes: Map<bigint, Hash>
  /** Each scanned transaction's sender. */
  senders: Map<Hash, Address>
  /** Why the scan ended before `toBlock`, if it did. */
  stoppedBy?: StopReason
  /**
   * Wallets (lower-cased) whose token transfers were not read from `fromBlock` on: a flood's
   * target, left to its lag (lib/trades/readWalletLogs.ts).
   */
  leftOut: Map<string, { wallet: Address; fromBlock: bigint }>
}

/** The scan's state across windows: whether its unfiltered reads are spent, and who is left out. */
interface ScanState {
  filtered: boolean
  leftOut: Map<string, { wallet: Address; fromBlock: bigint }>
}

/**
 * A window's token transfers: read unfiltered while the run's read budget lasts; the rest for
 * known wallets only, the wallets that took a sixteenth of the budget left out
 * (lib/trades/readWalletLogs.ts). `readTo` short of `end` means the scan stops there.
 */
async function readWindowLogs(
  client: ChainClient,
  parameters: ScanTransfersParameters & {
    start: bigint
    end: bigint
    readBefore: IncomingTransfer[]
  },
  state: ScanState,
): Promise<{ transfers: IncomingTransfer[]; readTo: bigint }> {
  const { start, end, maxRange, tokens, knownWallets, budget } = parameters
  const spent = state.filtered || budget.examined >= budget.limits.reads
  const head = spent
    ? { transfers: [], readTo: start - 1n }
    : await readTokenTransfers(client, {
        fromBlock: start,
        toBlock: end,
        maxRange,
        tokens,
        knownWallets,
        // A window whose logs come in pieces stops between two once the budget is spent.
        more: (read) => budget.examined + read < budget.limits.reads,
      })
  if (head.readTo >= end) return head
  if (!state.filtered) {
    state.filtered = true
    const known = new Set(await knownWallets())
    const read = [...parameters.readBefore, ...head.transfers]
    for (const key of heavyRecipients(read, known, budget.limits.reads)) {
      state.leftOut.set(key, { wallet: getAddress(key), fromBlock: head.readTo + 1n })
    }
  }
  const rest = await readWalletLogs(client, {
    fromBlock: head.readTo + 1n,
    toBlock: end,
    maxRange,
    tokens,
    knownWallets,
    reads: budget.limits.reads,
    leftOut: state.leftOut,
  })
  return { transfers: [...head.transfers, ...rest.transfers], readTo: rest.readTo }
}

export async function scanTransfers(
  client: ChainClient,
  parameters: ScanTransfersParameters,
): Promise<ScannedTransfers> {
  const { fromBlock, toBlock, traceInternal, knownWallets, budget } = parameters
  const scan: ScannedTransfers = {
    transfers: [],
    scannedTo: fromBlock - 1n,
    hashes: new Map(),
    senders: new Map(),
    leftOut: new Map(),
  }
  const state: ScanState = { filtered: false, leftOut: scan.leftOut }
  while (scan.scannedTo < toBlock) {
    // The unfiltered budget, then as much again read for known wallets only, at most.
    const stop = budget.timeUp()
      ? 'time'
      : budget.examined >= FILTERED_FACTOR * budget.limits.reads
        ? 'budget'
        : undefined
    if (stop) {
      scan.stoppedBy = stop
      break
    }
    const start = scan.scannedTo + 1n
    const end = start + WINDOW_BLOCKS - 1n < toBlock ? start + WINDOW_BLOCKS - 1n : toBlock
    const [logs, native, internal] = await Promise.all([
      readWindowLogs(client, { ...parameters, start, end, readBefore: scan.transfers }, state),
      readNativeTransfers(client, start, end),
      traceInternal ? readInternalTransfers(client, start, end, knownWallets) : [],
    ])
    const readTo = logs.readTo
    const within = (block: bigint) => block <= readTo
    const hashOf = (block: bigint): Hash => {
      const hash = native.hashes.get(block)
      if (!hash) throw new Error(`block ${block} was traced but not read`)
      return hash
    }
    const read = [
      ...logs.transfers,
      ...native.transfers.filter((transfer) => within(transfer.block.number)),
      ...internal
        .filter((transfer) => within(transfer.blockNumber))
        .map(({ blockNumber, ...transfer }) => ({
          ...transfer,
          block: { number: blockNumber, hash: hashOf(blockNumber) },
        })),
    ]
    for (const [number, hash] of native.hashes) if (within(number)) scan.hashes.set(number, hash)
    for (const [hash, sender] of native.senders) scan.senders.set(hash, sender)
    // One at a time: a window can hold 150,000 logs, past what a spread call's arguments take.
    for (const transfer of read) scan.transfers.push(transfer)
    budget.read(read.length)
    scan.scannedTo = readTo
    if (readTo < end) {
      scan.stoppedBy = budget.timeUp() ? 'time' : 'budget'
      break
    }
  }
  return scan
}
