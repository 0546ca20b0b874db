import { getBlock, getBlockNumber, readContract } from 'viem/actions'
import {
  type Address,
  BaseError,
  BlockNotFoundError,
  decodeEventLog,
  encodeEventTopics,
  erc20Abi,
  formatEther,
  formatUnits,
  getAbiItem,
  getAddress,
  type Hash,
  type Hex,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  toHex,
} from 'viem'
import { onChain, translateChainError } from '../chain/chainError'
import { type ChainClient, publicClient } from '../chain/clients'
import { RESPONSE_TOO_LARGE } from '../chain/nodeHttpTransport'
import { loadChainConfig, loadServedNetworks } from '../config'
import type { NetworkName } from '../networkNames'
import { advanceDepositCursor, getDepositCursorState } from '../db/depositCursor'
import { listJournalledDeposits, removeJournalledDeposit } from '../db/depositJournal'
import { ChainUnavailable } from '../errors'
import { NATIVE_COIN } from '../constants'
import { recordTrade, type TradeOutcome } from '../db/trade'
import { listCatalogTokenAddresses } from '../db/project'
import { findKnownWallets, listKnownWallets } from '../db/wallet'
import { logger } from '../logger'
import { mapConcurrently } from '../mapConcurrently'

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
  /** A log's block, should its receipt be too big to read. */
  block?: { number: bigint; hash: Hash }
  token: Address
  from: Address
  to: Address
  value: bigint
}

const TRANSFER_EVENT = getAbiItem({ abi: erc20Abi, name: 'Transfer' })
// Blocks (or transactions) asked at once; the batched transport sends them in one HTTP request.
const BATCH_SIZE = 50

/** `from`..`to` as a list. */
function blockNumbers(fromBlock: bigint, toBlock: bigint): bigint[] {
  const numbers: bigint[] = []
  for (let n = fromBlock; n <= toBlock; n += 1n) numbers.push(n)
  return numbers
}

/**
 * `read` of every item, BATCH_SIZE a POST, without retries: a batch the provider cannot serve
 * (isUnservable) is asked again in halves, and a single item still not served goes to
 * `readAlone` when there is one, or fails the run.
 */
async function readSplitting<Item, Answer>(
  client: ChainClient,
  items: readonly Item[],
  read: (item: Item) => Promise<Answer>,
  readAlone?: (item: Item) => Promise<Answer>,
): Promise<Answer[]> {
  const ask = async (batch: readonly Item[]): Promise<Answer[]> => {
    try {
      return await Promise.all(batch.map(read))
    } catch (error) {
      if (!(await isUnservable(client, error))) throw error
      const [only] = batch
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2)
        return [...(await ask(batch.slice(0, half))), ...(await ask(batch.slice(half)))]
      }
      if (only === undefined || !readAlone) throw error
      return [await readAlone(only)]
    }
  }
  const answers: Answer[] = []
  for (const batch of inChunks(items, BATCH_SIZE)) answers.push(...(await ask(batch)))
  return answers
}

/** A call as the indexer makes it: no retry, since what fails as too big is split instead. */
function requestOnce<Result>(
  client: ChainClient,
  method: string,
  params: unknown[],
): Promise<Result> {
  return client.request<{ Parameters: unknown[]; ReturnType: Result }>(
    { method, params },
    { retryCount: 0 },
  )
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

/** A transaction as eth_getBlockByNumber and eth_getTransactionByHash answer it. */
interface RpcTransaction {
  hash: Hash
  from: Address
  to: Address | null
  value: Hex
}

interface RpcBlock<Transaction> {
  number: Hex
  hash: Hash
  transactions: Transaction[]
}

async function blockAt<Transaction>(client: ChainClient, blockNumber: bigint, full: boolean) {
  const block = await requestOnce<RpcBlock<Transaction> | null>(client, 'eth_getBlockByNumber', [
    toHex(blockNumber),
    full,
  ])
  // Below the safe head, so the node has it; one that does not is lagging: fail, read it later.
  if (!block) throw new BlockNotFoundError({ blockNumber })
  return block
}

/**
 * Native transfers of the range, and the hash of each block read (to journal and compare). A
 * block too big to read with its transactions is read as hashes, then its transactions in
 * batches.
 */
async function readNativeTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<{
  transfers: IncomingTransfer[]
  hashes: Map<bigint, Hash>
  senders: Map<Hash, Address>
}> {
  const blocks = await readSplitting(
    client,
    blockNumbers(fromBlock, toBlock),
    (blockNumber) => blockAt<RpcTransaction>(client, blockNumber, true),
    async (blockNumber) => {
      const block = await blockAt<Hash>(client, blockNumber, false)
      const transactions = await readSplitting(client, block.transactions, (hash) =>
        requestOnce<RpcTransaction>(client, 'eth_getTransactionByHash', [hash]),
      )
      return { ...block, transactions }
    },
  )
  const transfers: IncomingTransfer[] = []
  const hashes = new Map<bigint, Hash>()
  const senders = new Map<Hash, Address>()
  for (const block of blocks) {
    hashes.set(BigInt(block.number), block.hash)
    for (const transaction of block.transactions) {
      senders.set(transaction.hash, getAddress(transaction.from))
      const value = BigInt(transaction.value)
      if (value === 0n || !transaction.to) continue
      transfers.push({
        hash: transaction.hash,
        token: NATIVE_COIN,
        from: getAddress(transaction.from),
        to: getAddress(transaction.to),
        value,
      })
    }
  }
  return { transfers, hashes, senders }
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
 * A block whose traces are too big to read whole is read with `trace_filter` for calls to known
 * wallets, FILTER_RECIPIENTS_MAX a query.
 */
async function readInternalTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
  knownWallets: () => Promise<Address[]>,
): Promise<IncomingTransfer[]> {
  const blocks = await readSplitting(
    client,
    blockNumbers(fromBlock, toBlock),
    async (blockNumber) =>
      (await requestOnce<CallTrace[] | null>(client, 'trace_block', [toHex(blockNumber)])) ?? [],
    async (blockNumber) => {
      const chunks = inChunks(await knownWallets(), FILTER_RECIPIENTS_MAX)
      const filtered = await readSplitting(client, chunks, (toAddress) =>
        requestOnce<CallTrace[]>(client, 'trace_filter', [
          { fromBlock: toHex(blockNumber), toBlock: toHex(blockNumber), toAddress },
        ]),
      )
      return filtered.flat()
    },
  )
  const transfers: IncomingTransfer[] = []
  for (const trace of blocks.flat()) {
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
  return transfers
}

// What one eth_getLogs filter may hold: geth serves at most 1,000 addresses and 1,000 values per
// topic position, and hosted providers follow it.
const FILTER_ADDRESSES_MAX = 1000
const FILTER_RECIPIENTS_MAX = 1000

function inChunks<Item>(items: readonly Item[], size: number): Item[][] {
  const chunks: Item[][] = []
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size))
  }
  return chunks
}

/** One eth_getLogs call's answer, as the node sent it. */
interface RpcLog {
  address: Address
  topics: Hex[]
  data: Hex
  blockNumber: Hex | null
  blockHash: Hash | null
  transactionHash: Hash | null
  logIndex: Hex | null
  removed?: boolean
}

/**
 * Whether the provider would not or could not serve an eth_getLogs query, so that a smaller one
 * may be served: a refusal of the range, an answer over the transport's size cap, or no answer in
 * time from a node that still answers a cheap call (a node that does not is down, and splitting
 * would only multiply the timeouts).
 */
async function isUnservable(client: ChainClient, error: unknown): Promise<boolean> {
  if (!(error instanceof BaseError)) return false
  if (isRangeRefusal(error)) return true
  if (
    error.walk((cause) => cause instanceof HttpRequestError && cause.details === RESPONSE_TOO_LARGE)
  ) {
    return true
  }
  if (!error.walk((cause) => cause instanceof TimeoutError)) return false
  return getBlockNumber(client, { cacheTime: 0 }).then(
    () => true,
    () => false,
  )
}

interface LogFilter {
  fromBlock: bigint
  toBlock: bigint
  tokens: readonly Address[]
  /** Topic 2 (`to`) among these; absent: any recipient. */
  recipients?: readonly Address[]
}

/** One eth_getLogs of Transfer events (no retry: a query the provider cannot serve is split). */
async function readLogs(client: ChainClient, filter: LogFilter): Promise<RpcLog[]> {
  const topics = encodeEventTopics({
    abi: [TRANSFER_EVENT],
    eventName: 'Transfer',
    ...(filter.recipients && { args: { to: [...filter.recipients] } }),
  })
  return requestOnce<RpcLog[]>(client, 'eth_getLogs', [
    {
      address: filter.tokens,
      topics,
      fromBlock: toHex(filter.fromBlock),
      toBlock: toHex(filter.toBlock),
    },
  ])
}

/**
 * The Transfer logs of the catalog's `tokens` in a range, in pieces of at most `maxRange` blocks
 * and FILTER_ADDRESSES_MAX tokens (DECISIONS §8.2): a stranger's contract adds nothing to the
 * answer. A piece the provider cannot serve is halved; a single block still too big is read with
 * recipient filters, FILTER_RECIPIENTS_MAX known wallets a query (halved again if need be), so
 * that a burst of transfers delays the indexer but never stalls it.
 */
async function catalogTransferLogs(
  client: ChainClient,
  range: { fromBlock: bigint; toBlock: bigint; maxRange: bigint },
  tokens: readonly Address[],
  knownWallets: () => Promise<Address[]>,
): Promise<RpcLog[]> {
  const ask = async (filter: LogFilter): Promise<RpcLog[]> => {
    try {
      return await readLogs(client, filter)
    } catch (error) {
      if (!(await isUnservable(client, error))) throw error
      const { fromBlock, toBlock, recipients } = filter
      if (fromBlock < toBlock) {
        const middle = fromBlock + (toBlock - fromBlock) / 2n
        return [
          ...(await ask({ ...filter, toBlock: middle })),
          ...(await ask({ ...filter, fromBlock: middle + 1n })),
        ]
      }
      if (!recipients) {
        const logs: RpcLog[] = []
        for (const chunk of inChunks(await knownWallets(), FILTER_RECIPIENTS_MAX)) {
          logs.push(...(await ask({ ...filter, recipients: chunk })))
        }
        return logs
      }
      // One block, one wallet, and still too much: nothing smaller to ask; the run fails.
      if (recipients.length === 1) throw error
      const half = Math.ceil(recipients.length / 2)
      return [
        ...(await ask({ ...filter, recipients: recipients.slice(0, half) })),
        ...(await ask({ ...filter, recipients: recipients.slice(half) })),
      ]
    }
  }
  const logs: RpcLog[] = []
  const { fromBlock, toBlock, maxRange } = range
  for (let start = fromBlock; start <= toBlock; start += maxRange) {
    const end = start + maxRange - 1n < toBlock ? start + maxRange - 1n : toBlock
    for (const chunk of inChunks(tokens, FILTER_ADDRESSES_MAX)) {
      logs.push(...(await ask({ fromBlock: start, toBlock: end, tokens: chunk })))
    }
  }
  return logs
}

/** A log as an ERC-20 Transfer, or undefined for one that is not (ERC-721 shares the topic). */
function decodeTransfer(log: RpcLog) {
  try {
    return decodeEventLog({
      abi: [TRANSFER_EVENT],
      data: log.data,
      topics: log.topics as [Hex],
      strict: true,
    }).args
  } catch {
    return undefined
  }
}

async function readTokenTransfers(
  client: ChainClient,
  range: { fromBlock: bigint; toBlock: bigint; maxRange: bigint },
  tokens: readonly Address[],
  knownWallets: () => Promise<Address[]>,
): Promise<IncomingTransfer[]> {
  // No catalog token on this network: nothing to ask (an empty address filter means any address).
  if (tokens.length === 0) return []
  const logs = await catalogTransferLogs(client, range, tokens, knownWallets)
  const transfers: IncomingTransfer[] = []
  for (const log of logs) {
    const args = decodeTransfer(log)
    if (log.removed || !args || !log.transactionHash || log.logIndex === null) continue
    transfers.push({
      hash: log.transactionHash,
      logIndex: Number(log.logIndex),
      ...(log.blockNumber &&
        log.blockHash && { block: { number: BigInt(log.blockNumber), hash: log.blockHash } }),
      token: getAddress(log.address),
      from: getAddress(args.from),
      to: getAddress(args.to),
      value: args.value,
    })
  }
  return transfers
}

/**
 * Whether `a` poses as `b`: another address with the same first and last four hex digits, the
 * part of an address a wallet app shows (0x4Eb7…82a3), as an address-poisoning sender has.
 */
function looksLike(a: Address, b: Address): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()]
  return x !== y && x.slice(2, 6) === y.slice(2, 6) && x.slice(-4) === y.slice(-4)
}

/**
 * DECISIONS §8.2, no fake deposits: the native coin or a catalog token, a value above zero, and a
 * sender that does not pose as the recipient (address poisoning, which plants a look-alike of the
 * wallet's own address in its history for its owner to copy).
 */
function isGenuineDeposit(transfer: IncomingTransfer, catalogTokens: ReadonlySet<Address>) {
  if (transfer.token !== NATIVE_COIN && !catalogTokens.has(transfer.token)) return false
  return transfer.value > 0n && !looksLike(transfer.from, transfer.to)
}

/** A receipt as eth_getTransactionReceipt answers it (the fields a deposit needs). */
interface RpcReceipt {
  status: Hex
  from: Address
  blockHash: Hash
  blockNumber: Hex
  gasUsed: Hex
}

/** What a deposit's transaction did, from its receipt or, for a log, from the scan. */
interface DepositOutcome extends TradeOutcome {
  blockHash: Hash
  from: Address
}

const TOO_BIG = Symbol('receipt too big to read')
const WALLETS_IN_PARALLEL = 16

/**
 * The receipts of `hashes`, BATCH_SIZE a request and halved when too big (a transaction's
 * receipt carries all its logs: one with a burst of them is megabytes); one too big even alone is
 * TOO_BIG, and null is a receipt the node does not have (yet).
 */
function readReceipts(client: ChainClient, hashes: readonly Hash[]) {
  return readSplitting<Hash, RpcReceipt | null | typeof TOO_BIG>(
    client,
    hashes,
    (hash) => requestOnce<RpcReceipt | null>(client, 'eth_getTransactionReceipt', [hash]),
    () => Promise.resolve(TOO_BIG),
  )
}

async function recordDeposits(
  client: ChainClient,
  network: NetworkName,
  deposits: IncomingTransfer[],
  scan: { hashes: Set<Hash>; senders: Map<Hash, Address> },
): Promise<number> {
  const hashes = [...new Set(deposits.map((deposit) => deposit.hash))]
  const read = await readReceipts(client, hashes)
  const receipts = new Map(hashes.map((hash, index) => [hash, read[index]] as const))
  const byWallet = new Map<string, Array<{ deposit: IncomingTransfer; outcome: DepositOutcome }>>()
  for (const deposit of deposits) {
    const receipt = receipts.get(deposit.hash)
    // A node behind a load balancer can lag the one that served the block: fail the run so the
    // cursor stays and the range is scanned again, rather than skip the deposit for good.
    if (!receipt) throw new Error(`${network}: no receipt yet for ${deposit.hash}; retrying later`)
    const sender = scan.senders.get(deposit.hash)
    let outcome: DepositOutcome
    if (receipt === TOO_BIG) {
      // Only a successful transaction leaves logs, and the scan saw its block and sender; its
      // gas is not known (0). Native coin needs the status: that run fails.
      if (!deposit.block || !sender) {
        throw new Error(`${network}: the receipt of ${deposit.hash} is too big to read`)
      }
      outcome = {
        status: 'successful',
        gasUsed: 0n,
        blockNumber: deposit.block.number,
        blockHash: deposit.block.hash,
        from: sender,
      }
    } else {
      outcome = {
        status: receipt.status === '0x1' ? 'successful' : 'failed',
        gasUsed: BigInt(receipt.gasUsed),
        blockNumber: BigInt(receipt.blockNumber),
        blockHash: receipt.blockHash,
        from: getAddress(receipt.from),
      }
    }
    // A reverted transaction moved no value; a wallet's own transaction is its own trade
    // (a swap's output, a transfer to itself), not a deposit.
    if (outcome.status !== 'successful' || outcome.from === deposit.to) continue
    // Mined again elsewhere since the scan (a reorganisation mid-run): the next run sees it.
    if (!scan.hashes.has(outcome.blockHash)) continue
    byWallet.set(deposit.to, [...(byWallet.get(deposit.to) ?? []), { deposit, outcome }])
  }
  // One wallet's deposits in turn (they share its counters); WALLETS_IN_PARALLEL wallets at once
  // (a chain minute holds hundreds of deposits: all at once time out against the table).
  const counts = await mapConcurrently(
    [...byWallet.values()],
    WALLETS_IN_PARALLEL,
    async (walletDeposits) => {
      let recorded = 0
      for (const { deposit, outcome } of walletDeposits) {
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
          outcome: {
            status: outcome.status,
            gasUsed: outcome.gasUsed,
            blockNumber: outcome.blockNumber,
            blockHash: outcome.blockHash,
          },
        })
        if (result.created) recorded += 1
      }
      return recorded
    },
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
  const catalog = await listCatalogTokenAddresses(network)
  // Read only when a block is too big to read whole, and then once a run.
  let wallets: Promise<Address[]> | undefined
  const knownWallets = () => (wallets ??= listKnownWallets())
  const [tokenTransfers, native, internal] = await Promise.all([
    readTokenTransfers(
      client,
      { fromBlock, toBlock, maxRange: BigInt(logsMaxBlocks) },
      catalog,
      knownWallets,
    ),
    readNativeTransfers(client, fromBlock, toBlock),
    traceInternal ? readInternalTransfers(client, fromBlock, toBlock, knownWallets) : [],
  ])
  const catalogTokens = new Set(catalog)
  const transfers = [...tokenTransfers, ...native.transfers, ...internal].filter((transfer) =>
    isGenuineDeposit(transfer, catalogTokens),
  )
  const known = await findKnownWallets(transfers.map((transfer) => transfer.to))
  const recorded = await recordDeposits(
    client,
    network,
    transfers.filter((transfer) => known.has(transfer.to.toLowerCase())),
    { hashes: new Set(native.hashes.values()), senders: native.senders },
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
  networks = loadServedNetworks(),
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
