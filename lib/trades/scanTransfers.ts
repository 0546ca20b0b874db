import type { Address, Hash } from 'viem'
import type { ChainClient } from '../chain/clients'
import type { RunBudget, StopReason } from './runBudget'
import {
  type IncomingTransfer,
  readInternalTransfers,
  readNativeTransfers,
  readTokenTransfers,
} from './transferSources'

// The indexer's forward scan (DECISIONS §9.1, bounded work): the three transfer sources read
// together, a window of blocks at a time, until the range ends, the run's transfer budget is spent
// or its time is nearly up. Only whole blocks count as scanned, so the cursor moves to a block.

/** Blocks read at once: four batched requests of block bodies and one eth_getLogs. */
const WINDOW_BLOCKS = 200n

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
}

export async function scanTransfers(
  client: ChainClient,
  parameters: ScanTransfersParameters,
): Promise<ScannedTransfers> {
  const { fromBlock, toBlock, maxRange, tokens, traceInternal, knownWallets, budget } = parameters
  const scan: ScannedTransfers = {
    transfers: [],
    scannedTo: fromBlock - 1n,
    hashes: new Map(),
    senders: new Map(),
  }
  while (scan.scannedTo < toBlock) {
    const stop = budget.stop()
    if (stop) {
      scan.stoppedBy = stop
      break
    }
    const start = scan.scannedTo + 1n
    const end = start + WINDOW_BLOCKS - 1n < toBlock ? start + WINDOW_BLOCKS - 1n : toBlock
    const [logs, native, internal] = await Promise.all([
      readTokenTransfers(client, {
        fromBlock: start,
        toBlock: end,
        maxRange,
        tokens,
        knownWallets,
        // A window whose logs come in pieces stops between two once the budget is spent.
        more: (read) => budget.examined + read < budget.limits.reads,
      }),
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
    scan.transfers.push(...read)
    budget.read(read.length)
    scan.scannedTo = readTo
  }
  return scan
}
