import { getBlock, getBlockNumber, getLogs, readContract } from 'viem/actions'
import {
  type Address,
  BaseError,
  BlockNotFoundError,
  erc20Abi,
  formatEther,
  formatUnits,
  getAbiItem,
  getAddress,
  type Hash,
  RpcRequestError,
  toHex,
  type TransactionReceipt,
} from 'viem'
import { onChain, translateChainError } from '../chain/chainError'
import { type ChainClient, publicClient } from '../chain/clients'
import { findReceipt } from '../chain/findReceipt'
import { loadChainConfig, NETWORK_NAMES, type NetworkName } from '../config'
import { advanceDepositCursor, getDepositCursorState } from '../db/depositCursor'
import { listJournalledDeposits, removeJournalledDeposit } from '../db/depositJournal'
import { ChainUnavailable } from '../errors'
import { NATIVE_COIN } from '../constants'
import { recordTrade } from '../db/trade'
import { findKnownWallets } from '../db/wallet'
import { logger } from '../logger'
import { outcomeOf } from './settleIfMined'

export interface IndexDepositsParameters {
  networks?: readonly NetworkName[]
  /** Blocks scanned per network and run, at most. */
  maxBlocks?: number
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
}

/** A transfer into some address, before we know whether the address is a wallet of ours. */
interface IncomingTransfer {
  hash: Hash
  /** Absent for the native value of a transaction. */
  logIndex?: number
  /** An internal call's trace address, for native coin a contract sent. */
  traceAddress?: string
  token: Address
  from: Address
  to: Address
  value: bigint
}

const TRANSFER_EVENT = getAbiItem({ abi: erc20Abi, name: 'Transfer' })
// Blocks requested at once; the batched transport sends them in one HTTP request.
const BLOCK_CONCURRENCY = 50

/** The block numbers from `fromBlock` to `toBlock`, BLOCK_CONCURRENCY at a time. */
function* blockBatches(fromBlock: bigint, toBlock: bigint): Generator<bigint[]> {
  for (let start = fromBlock; start <= toBlock; start += BigInt(BLOCK_CONCURRENCY)) {
    const numbers: bigint[] = []
    for (let n = start; n <= toBlock && n < start + BigInt(BLOCK_CONCURRENCY); n += 1n) {
      numbers.push(n)
    }
    yield numbers
  }
}
/**
 * How far back a reorganisation is looked for and re-scanned once detected; one deeper than this
 * (and than the confirmation depth) needs an operator to set the cursor back.
 */
export const REORG_WINDOW = 128n

/** The canonical hash at a height, or undefined when the chain is not that long (any more). */
async function blockHashAt(client: ChainClient, blockNumber: bigint): Promise<Hash | undefined> {
  try {
    return (await getBlock(client, { blockNumber })).hash ?? undefined
  } catch (error) {
    if (error instanceof BlockNotFoundError) return undefined
    throw error
  }
}

/**
 * After a reorganisation below `nextBlock`: removes every journalled deposit of the last
 * REORG_WINDOW blocks whose block is no longer canonical, and answers where to scan again from
 * (the window's start: deposits still canonical are not recorded twice, thanks to their markers).
 */
async function rollBackOrphans(
  client: ChainClient,
  network: NetworkName,
  nextBlock: bigint,
): Promise<{ rescanFrom: bigint; removed: number }> {
  const rescanFrom = nextBlock > REORG_WINDOW ? nextBlock - REORG_WINDOW : 0n
  const journalled = await listJournalledDeposits(network, rescanFrom)
  const heights = [...new Set(journalled.map((deposit) => deposit.blockNumber))]
  const canonical = new Map(
    await Promise.all(
      heights.map(async (height) => [height, await blockHashAt(client, height)] as const),
    ),
  )
  let removed = 0
  for (const deposit of journalled) {
    if (canonical.get(deposit.blockNumber) === deposit.blockHash) continue
    await removeJournalledDeposit(deposit)
    removed += 1
  }
  logger.warn('deposit indexer: reorganisation rolled back', { network, removed })
  return { rescanFrom, removed }
}

// Token decimals never change: read once per container.
const decimalsCache = new Map<string, Promise<number | undefined>>()

function tokenDecimals(client: ChainClient, network: NetworkName, token: Address) {
  const key = `${network}:${token.toLowerCase()}`
  let decimals = decimalsCache.get(key)
  if (!decimals) {
    decimals = readContract(client, { address: token, abi: erc20Abi, functionName: 'decimals' })
      .then(Number)
      .catch((error: unknown) => {
        // A node that did not answer said nothing about the token: fail the run, so the range is
        // scanned again, and ask again then, rather than skip the deposit and cache the miss.
        const translated = translateChainError(error, network)
        if (translated instanceof ChainUnavailable) {
          decimalsCache.delete(key)
          throw translated
        }
        // Not an ERC-20 we can price in whole units (no decimals()): its logs are skipped.
        return undefined
      })
    decimalsCache.set(key, decimals)
  }
  return decimals
}

/** Native transfers of the range, and the hash of each block read (to journal and compare). */
async function readNativeTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<{ transfers: IncomingTransfer[]; hashes: Map<bigint, Hash> }> {
  const transfers: IncomingTransfer[] = []
  const hashes = new Map<bigint, Hash>()
  for (const numbers of blockBatches(fromBlock, toBlock)) {
    const blocks = await Promise.all(
      numbers.map((blockNumber) => getBlock(client, { blockNumber, includeTransactions: true })),
    )
    for (const block of blocks) if (block.hash) hashes.set(block.number ?? 0n, block.hash)
    for (const transaction of blocks.flatMap((block) => block.transactions)) {
      if (transaction.value === 0n || !transaction.to) continue
      transfers.push({
        hash: transaction.hash,
        token: NATIVE_COIN,
        from: getAddress(transaction.from),
        to: getAddress(transaction.to),
        value: transaction.value,
      })
    }
  }
  return { transfers, hashes }
}

// How hosted providers refuse an eth_getLogs range: too many blocks or too many results
// (tests/faults/providerLimits.test.ts quotes Infura, Alchemy, QuickNode, geth and zkSync).
const RANGE_REFUSED =
  /range|too many|more than \d+ results|limit exceeded|too large|too big|exceed|response size|query timeout/i

function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  return Boolean(
    error.walk(
      (cause) =>
        cause instanceof RpcRequestError &&
        (cause.code === -32005 || RANGE_REFUSED.test(cause.details)),
    ),
  )
}

/** A call of `trace_block` (Parity/OpenEthereum format, as anvil and Erigon answer it). */
interface CallTrace {
  type: string
  action: { callType?: string; from?: Address; to?: Address; value?: `0x${string}` }
  error?: string
  traceAddress: number[]
  transactionHash?: Hash
}

/**
 * Native coin moved by contracts (internal calls with value, e.g. a router unwrapping to a
 * user), from `trace_block`; the top-level call is the transaction's own value, read elsewhere.
 */
async function readInternalTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<IncomingTransfer[]> {
  const transfers: IncomingTransfer[] = []
  for (const numbers of blockBatches(fromBlock, toBlock)) {
    const blocks = await Promise.all(
      numbers.map((blockNumber) =>
        client.request<{ Parameters: [`0x${string}`]; ReturnType: CallTrace[] | null }>({
          method: 'trace_block',
          params: [toHex(blockNumber)],
        }),
      ),
    )
    for (const trace of blocks.flatMap((traces) => traces ?? [])) {
      const { action } = trace
      const value = action.value ? BigInt(action.value) : 0n
      if (trace.type !== 'call' || action.callType !== 'call' || trace.error) continue
      if (trace.traceAddress.length === 0 || value === 0n || !trace.transactionHash) continue
      if (!action.from || !action.to) continue
      transfers.push({
        hash: trace.transactionHash,
        traceAddress: trace.traceAddress.join('.'),
        token: NATIVE_COIN,
        from: getAddress(action.from),
        to: getAddress(action.to),
        value,
      })
    }
  }
  return transfers
}

/**
 * ERC-20 Transfer logs of a range, asked in pieces of at most `maxRange` blocks; a piece the
 * provider refuses as too large (DECISIONS §7.2) is halved until it is served (a single block
 * that is still refused fails the run, which then scans the range again).
 */
async function transferLogs(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
  maxRange: bigint,
) {
  const pieces: Array<[bigint, bigint]> = []
  for (let start = fromBlock; start <= toBlock; start += maxRange) {
    pieces.push([start, start + maxRange - 1n < toBlock ? start + maxRange - 1n : toBlock])
  }
  const ask = async (from: bigint, to: bigint): Promise<Awaited<ReturnType<typeof readLogs>>> => {
    try {
      return await readLogs(client, from, to)
    } catch (error) {
      if (from === to || !isRangeRefusal(error)) throw error
      const middle = from + (to - from) / 2n
      return [...(await ask(from, middle)), ...(await ask(middle + 1n, to))]
    }
  }
  const logs = []
  for (const [from, to] of pieces) logs.push(...(await ask(from, to)))
  return logs
}

function readLogs(client: ChainClient, fromBlock: bigint, toBlock: bigint) {
  // Strict: logs that do not decode as an ERC-20 Transfer (ERC-721 shares its topic) are left out.
  return getLogs(client, { event: TRANSFER_EVENT, fromBlock, toBlock, strict: true })
}

async function readTokenTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
  maxRange: bigint,
): Promise<IncomingTransfer[]> {
  const logs = await transferLogs(client, fromBlock, toBlock, maxRange)
  return logs
    .filter((log) => !log.removed && log.args.value > 0n)
    .map((log) => ({
      hash: log.transactionHash,
      logIndex: log.logIndex,
      token: getAddress(log.address),
      from: getAddress(log.args.from),
      to: getAddress(log.args.to),
      value: log.args.value,
    }))
}

async function recordDeposits(
  client: ChainClient,
  network: NetworkName,
  deposits: IncomingTransfer[],
  scannedHashes: Set<Hash>,
): Promise<number> {
  const hashes = [...new Set(deposits.map((deposit) => deposit.hash))]
  const receipts = new Map<Hash, TransactionReceipt | undefined>(
    await Promise.all(
      hashes.map(async (hash) => [hash, await findReceipt(client, { hash })] as const),
    ),
  )
  const byWallet = new Map<
    string,
    Array<{ deposit: IncomingTransfer; receipt: TransactionReceipt }>
  >()
  for (const deposit of deposits) {
    const receipt = receipts.get(deposit.hash)
    // A node behind a load balancer can lag the one that served the block: fail the run so the
    // cursor stays and the range is scanned again, rather than skip the deposit for good.
    if (!receipt) throw new Error(`${network}: no receipt yet for ${deposit.hash}; retrying later`)
    // A reverted transaction moved no value; a wallet's own transaction is its own trade
    // (a swap's output, a transfer to itself), not a deposit.
    if (receipt.status !== 'success' || getAddress(receipt.from) === deposit.to) continue
    // Mined again elsewhere since the scan (a reorganisation mid-run): the next run sees it.
    if (!scannedHashes.has(receipt.blockHash)) continue
    byWallet.set(deposit.to, [...(byWallet.get(deposit.to) ?? []), { deposit, receipt }])
  }
  // One wallet's deposits in turn (they share its counters); wallets in parallel.
  const counts = await Promise.all(
    [...byWallet.values()].map(async (walletDeposits) => {
      let recorded = 0
      for (const { deposit, receipt } of walletDeposits) {
        const isNativeTransfer = deposit.logIndex === undefined
        const decimals = isNativeTransfer ? 18 : await tokenDecimals(client, network, deposit.token)
        if (decimals === undefined) {
          logger.warn('deposit skipped: token without decimals()', {
            network,
            token: deposit.token,
          })
          continue
        }
        const result = await recordTrade({
          hash: deposit.hash,
          type: 'deposit',
          network,
          wallet: deposit.to,
          from: deposit.from,
          to: deposit.to,
          amount: isNativeTransfer
            ? formatEther(deposit.value)
            : formatUnits(deposit.value, decimals),
          token: deposit.token,
          isNativeTransfer,
          logIndex: deposit.logIndex,
          traceAddress: deposit.traceAddress,
          outcome: outcomeOf(receipt),
        })
        if (result.created) recorded += 1
      }
      return recorded
    }),
  )
  return counts.reduce((sum, count) => sum + count, 0)
}

async function indexNetwork(network: NetworkName, maxBlocks: number): Promise<NetworkIndexing> {
  const client = publicClient(network)
  const { confirmations, logsMaxBlocks, traceInternal } = loadChainConfig(network)
  const [cursor, head] = await Promise.all([
    getDepositCursorState(network),
    getBlockNumber(client, { cacheTime: 0 }),
  ])
  // DECISIONS §7.2: deposits only from blocks with `confirmations` blocks on top.
  const safeHead = head - BigInt(confirmations)
  if (cursor === undefined) {
    // First run: follow the chain from here on; what came before the service is not a deposit.
    // A chain not yet as long as the confirmation depth (a new devnet) is followed from block 0:
    // a cursor below it would ask the node for negative block numbers.
    const lastHash = safeHead >= 0n ? await blockHashAt(client, safeHead) : undefined
    const advanced = await advanceDepositCursor(network, {
      from: undefined,
      to: safeHead >= 0n ? safeHead + 1n : 0n,
      lastHash,
    })
    return { network, recorded: 0, advanced, removed: 0 }
  }
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
  if (fromBlock > safeHead) {
    if (fromBlock === cursor.nextBlock) return { network, recorded: 0, advanced: false, removed }
    const advanced = await advanceDepositCursor(network, {
      from: cursor.nextBlock,
      to: fromBlock,
      lastHash: fromBlock > 0n ? await blockHashAt(client, fromBlock - 1n) : undefined,
    })
    return { network, recorded: 0, advanced, removed }
  }
  const toBlock =
    safeHead < fromBlock + BigInt(maxBlocks) - 1n ? safeHead : fromBlock + BigInt(maxBlocks) - 1n
  const [tokenTransfers, native, internal] = await Promise.all([
    readTokenTransfers(client, fromBlock, toBlock, BigInt(logsMaxBlocks)),
    readNativeTransfers(client, fromBlock, toBlock),
    traceInternal ? readInternalTransfers(client, fromBlock, toBlock) : [],
  ])
  const transfers = [...tokenTransfers, ...native.transfers, ...internal]
  const known = await findKnownWallets(transfers.map((transfer) => transfer.to))
  const recorded = await recordDeposits(
    client,
    network,
    transfers.filter((transfer) => known.has(transfer.to.toLowerCase())),
    new Set(native.hashes.values()),
  )
  // Only now: a run that failed above leaves the cursor, and the next run scans the range again.
  const advanced = await advanceDepositCursor(network, {
    from: cursor.nextBlock,
    to: toBlock + 1n,
    lastHash: native.hashes.get(toBlock),
  })
  return { network, fromBlock, toBlock, recorded, advanced, removed }
}

/**
 * Follows each network from its stored cursor over at most `maxBlocks` blocks and records ERC-20
 * Transfer logs and native transfers into known wallets as successful `deposit` trades, once per
 * (hash, log index) however often a range is scanned. A failing node stops only its own network.
 */
export async function indexDeposits({
  networks = NETWORK_NAMES,
  maxBlocks = 2000,
}: IndexDepositsParameters = {}): Promise<NetworkIndexing[]> {
  const results = await Promise.allSettled(
    // ChainUnavailable, not viem's error: a scheduled run's error is logged, and viem's quotes
    // the RPC URL, which can carry a provider's API key.
    networks.map((network) => onChain(network, () => indexNetwork(network, maxBlocks))),
  )
  const failure = results.find((result) => result.status === 'rejected')
  if (failure) throw failure.reason
  return results.map((result) => (result as PromiseFulfilledResult<NetworkIndexing>).value)
}
