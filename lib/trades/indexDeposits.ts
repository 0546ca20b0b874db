import { getBlock } from 'viem/actions'
import type { Address } from 'viem'
import { blockHashAt } from '../chain/blockHashAt'
import { onChain } from '../chain/chainError'
import { type ChainClient, publicClient } from '../chain/clients'
import { type ChainConfig, loadChainConfig, loadServedNetworks } from '../config'
import {
  advanceDepositCursor,
  type DepositCursorState,
  getDepositCursorState,
} from '../db/depositCursor'
import { type DepositLag, listDepositLags } from '../db/depositLags'
import { listCatalogTokens } from '../db/project'
import { listKnownWallets } from '../db/wallet'
import type { NetworkName } from '../networkNames'
import { dustPrices } from './dustPrices'
import { keepLags } from './keepLags'
import { readLaggingTransfers } from './readLaggingTransfers'
import { recordRunDeposits } from './recordRunDeposits'
import { rollBackOrphans } from './rollBackOrphans'
import { createRunBudget, type RunBudget, type RunLimits, type StopReason } from './runBudget'
import { scanTransfers } from './scanTransfers'
import { selectDeposits } from './selectDeposits'

export interface IndexDepositsParameters {
  networks?: readonly NetworkName[]
  /** Blocks scanned per network and run, at most. */
  maxBlocks?: number
  /** The run's counts (DEPOSIT_RUN_TRANSFERS, _DEPOSITS and _READS unless given). */
  limits?: Partial<RunLimits>
  /** The invocation's time left in ms (a Lambda context's getRemainingTimeInMillis). */
  remainingMs?: () => number
}

export interface NetworkIndexing {
  network: NetworkName
  /** The blocks scanned; absent when there was nothing new (or on the first run). */
  fromBlock?: bigint
  toBlock?: bigint
  /** Deposits recorded by this run (re-scanned ones are not recorded again). */
  recorded: number
  /** False when another run or an operator moved the cursor meanwhile. */
  advanced: boolean
  /** Deposits of orphaned blocks removed after a reorganisation was detected. */
  removed: number
  /** Transfers read: catalog token logs, native and internal value. */
  examined: number
  /** Transfers below the dust threshold (to anyone): counted, never listed (DECISIONS §9.1). */
  dust: number
  /** Transfers from look-alikes of an address the wallet sent to (DECISIONS §9.1). */
  lookAlikes: number
  /** Token deposits left for later runs, beyond their wallets' fair shares. */
  deferred: number
  /** Wallets with deposits left for later runs once this run ended. */
  lagging: number
  /** Why the run ended before the chain's confirmed head, if it did. */
  stoppedBy?: StopReason
}
type IndexOptions = Required<Pick<IndexDepositsParameters, 'maxBlocks'>> & IndexDepositsParameters

/** A network's run that recorded nothing (before `removed` and `advanced`). */
const QUIET = { recorded: 0, removed: 0, examined: 0, dust: 0, lookAlikes: 0, deferred: 0 }

async function indexNetwork(network: NetworkName, options: IndexOptions): Promise<NetworkIndexing> {
  const client = publicClient(network)
  const chain = loadChainConfig(network)
  const budget = createRunBudget(options.limits, options.remainingMs)
  const [cursor, { number: head, timestamp }] = await Promise.all([
    getDepositCursorState(network),
    getBlock(client, { blockTag: 'latest' }),
  ])
  // DECISIONS §7.2: deposits only from blocks with `confirmations` blocks on top.
  const safeHead = head - BigInt(chain.confirmations)
  if (cursor === undefined) return followFromHere(client, network, safeHead)
  const { fromBlock, removed } = await resumeFrom(client, network, cursor)
  // Too late to start: the next run goes on from here (a rollback above is done again, at no cost).
  if (budget.timeUp()) {
    return { network, ...QUIET, removed, advanced: false, lagging: 0, stoppedBy: 'time' }
  }
  const lags = await listDepositLags(network)
  if (fromBlock > safeHead && lags.length === 0) {
    if (fromBlock === cursor.nextBlock) {
      return { network, ...QUIET, removed, advanced: false, lagging: 0 }
    }
    const advanced = await advanceDepositCursor(network, {
      from: cursor.nextBlock,
      to: fromBlock,
      lastHash: fromBlock > 0n ? await blockHashAt(client, fromBlock - 1n) : undefined,
    })
    return { network, ...QUIET, removed, advanced, lagging: 0 }
  }
  const lastBlock = fromBlock + BigInt(options.maxBlocks) - 1n
  return indexRange(client, network, {
    chain,
    budget,
    cursor,
    lags,
    fromBlock,
    toBlock: safeHead < lastBlock ? safeHead : lastBlock,
    removed,
    at: new Date(Number(timestamp) * 1000),
  })
}

/**
 * First run: follow the chain from here on; what came before the service is not a deposit. A
 * chain not yet as long as the confirmation depth (a new devnet) is followed from block 0: a
 * cursor below it would ask the node for negative block numbers.
 */
async function followFromHere(
  client: ChainClient,
  network: NetworkName,
  safeHead: bigint,
): Promise<NetworkIndexing> {
  const lastHash = safeHead >= 0n ? await blockHashAt(client, safeHead) : undefined
  const advanced = await advanceDepositCursor(network, {
    from: undefined,
    to: safeHead >= 0n ? safeHead + 1n : 0n,
    lastHash,
  })
  return { network, ...QUIET, advanced, lagging: 0 }
}

/** Where the run starts: the cursor, or before it when its last block was orphaned (rolled back). */
async function resumeFrom(
  client: ChainClient,
  network: NetworkName,
  cursor: DepositCursorState,
): Promise<{ fromBlock: bigint; removed: number }> {
  let fromBlock = cursor.nextBlock
  let removed = 0
  if (cursor.lastHash && fromBlock > 0n) {
    const lastHash = await blockHashAt(client, fromBlock - 1n)
    if (lastHash !== cursor.lastHash) {
      const rollBack = await rollBackOrphans(client, network, fromBlock)
      fromBlock = rollBack.rescanFrom
      removed = rollBack.removed
    }
  }
  return { fromBlock, removed }
}

interface RangeRun {
  chain: ChainConfig
  budget: RunBudget
  cursor: DepositCursorState
  lags: DepositLag[]
  fromBlock: bigint
  toBlock: bigint
  /** Deposits of orphaned blocks removed before the range. */
  removed: number
  /** The chain's time at its head: the dust floors' prices are those of then. */
  at: Date
}

/**
 * Reads the range and the lagging wallets' backlogs, records what the run's budget allows, keeps
 * the lags of what it left and moves the cursor past what was scanned.
 */
async function indexRange(
  client: ChainClient,
  network: NetworkName,
  { chain, budget, cursor, lags, fromBlock, toBlock, removed, at }: RangeRun,
): Promise<NetworkIndexing> {
  const catalog = await listCatalogTokens(network)
  const tokens = catalog.map((token) => token.address)
  const maxRange = BigInt(chain.logsMaxBlocks)
  // Read only when a block is too big to read whole, and then once a run.
  let wallets: Promise<Address[]> | undefined
  const knownWallets = () => (wallets ??= listKnownWallets())

  // Other wallets first: a flooded wallet's backlog is read back after, with what is left.
  const scan = await scanTransfers(client, {
    fromBlock,
    toBlock,
    maxRange,
    tokens,
    traceInternal: chain.traceInternal,
    knownWallets,
    budget,
  })
  // What the scan left of the read budget, and never less than a quarter of it.
  const lagged = await readLaggingTransfers(client, lags, {
    maxRange,
    tokens,
    transfers: Math.max(budget.limits.reads - budget.examined, budget.limits.reads / 4),
    budget,
  })
  const selection = await selectDeposits(client, network, {
    scanned: scan.transfers,
    lagging: lagged.flatMap((read) => read.transfers),
    catalog,
    prices: await dustPrices(network, chain, { tokens, at }),
    transfers: budget.limits.transfers,
  })
  const outcomes = await recordRunDeposits(client, network, selection, {
    budget,
    senders: scan.senders,
  })

  // The cursor passes what was scanned, except native value that could not be written in time.
  const scannedTo = outcomes.reduce(
    (to, { nativeLeftAt }) =>
      nativeLeftAt !== undefined && nativeLeftAt <= to ? nativeLeftAt - 1n : to,
    scan.scannedTo,
  )
  const cursorTo = scannedTo + 1n
  const lagging = await keepLags(network, {
    lags,
    lagged,
    outcomes,
    cursorTo,
    leftOut: scan.leftOut,
  })
  const advanced =
    cursorTo !== cursor.nextBlock &&
    (await advanceDepositCursor(network, {
      from: cursor.nextBlock,
      to: cursorTo,
      lastHash:
        cursorTo > 0n
          ? (scan.hashes.get(cursorTo - 1n) ?? (await blockHashAt(client, cursorTo - 1n)))
          : undefined,
    }))
  return {
    network,
    ...(scannedTo >= fromBlock && { fromBlock, toBlock: scannedTo }),
    recorded: outcomes.reduce((sum, outcome) => sum + outcome.recorded, 0),
    advanced,
    removed,
    examined: budget.examined,
    dust: selection.dust,
    lookAlikes: selection.lookAlikes,
    deferred: outcomes.reduce((sum, outcome) => sum + outcome.left, 0),
    lagging,
    ...(scan.stoppedBy && { stoppedBy: scan.stoppedBy }),
  }
}

/**
 * Follows each network from its stored cursor over at most `maxBlocks` blocks and records ERC-20
 * Transfer logs and native transfers into known wallets as successful `deposit` trades, once per
 * (hash, log index) however often a range is scanned, within the run's counted budget and time
 * (DECISIONS §9.1). A failing node stops only its own network.
 */
export async function indexDeposits({
  networks = loadServedNetworks(),
  maxBlocks = 2000,
  ...options
}: IndexDepositsParameters = {}): Promise<NetworkIndexing[]> {
  const results = await Promise.allSettled(
    // ChainUnavailable, not viem's error: a scheduled run's error is logged, and viem's quotes
    // the RPC URL, which can carry a provider's API key.
    networks.map((network) =>
      onChain(network, () => indexNetwork(network, { maxBlocks, ...options })),
    ),
  )
  const failure = results.find((result) => result.status === 'rejected')
  if (failure) throw failure.reason
  return results.map((result) => (result as PromiseFulfilledResult<NetworkIndexing>).value)
}
