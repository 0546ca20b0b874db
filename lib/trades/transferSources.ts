import { type Address, BlockNotFoundError, getAddress, type Hash, type Hex, toHex } from 'viem'
import type { ChainClient } from '../chain/clients'
import { inChunks, readSplitting, requestOnce } from '../chain/splitReads'
import {
  FILTER_RECIPIENTS_MAX,
  readTransferLogs,
  type ReadTransferLogsParameters,
} from '../chain/transferLogs'
import { NATIVE_COIN } from '../constants'
import type { DepositPlace } from '../db/keys'

// The three ways value reaches an address, as the deposit indexer reads them: ERC-20 Transfer
// logs of the catalog's tokens, the native value of transactions, and native value that contracts
// send on in internal calls (traces, where a network has them).

/** A transfer into some address, before we know whether the address is a wallet of ours. */
export interface IncomingTransfer {
  hash: Hash
  /** Where in its transaction: a log's index, the transaction's own value or an internal call. */
  place: DepositPlace
  block: { number: bigint; hash: Hash }
  /** A catalog token's address, or NATIVE_COIN. */
  token: Address
  from: Address
  to: Address
  value: bigint
}

/** Token transfers of a range in block order (provider limits: lib/chain/transferLogs.ts). */
export async function readTokenTransfers(
  client: ChainClient,
  parameters: ReadTransferLogsParameters,
): Promise<{ transfers: IncomingTransfer[]; readTo: bigint }> {
  const { logs, readTo } = await readTransferLogs(client, parameters)
  const transfers = logs.map((log) => ({
    hash: log.hash,
    place: log.logIndex,
    block: { number: log.blockNumber, hash: log.blockHash },
    token: log.token,
    from: log.from,
    to: log.to,
    value: log.value,
  }))
  return { transfers, readTo }
}

/** `from`..`to` as a list. */
function blockNumbers(fromBlock: bigint, toBlock: bigint): bigint[] {
  const numbers: bigint[] = []
  for (let n = fromBlock; n <= toBlock; n += 1n) numbers.push(n)
  return numbers
}

/** A transaction as eth_getBlockByNumber and eth_getTransactionByHash answer it. */
export interface RpcTransaction {
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

export interface NativeTransfers {
  transfers: IncomingTransfer[]
  /** The hash of each block read (to journal deposits under, and to compare after a reorg). */
  hashes: Map<bigint, Hash>
  /** Each transaction's sender, for a deposit whose receipt is too big to read. */
  senders: Map<Hash, Address>
}

/**
 * Native transfers of the range, with the blocks' hashes and the transactions' senders. A block
 * too big to read with its transactions is read as hashes, then its transactions in batches.
 */
export async function readNativeTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<NativeTransfers> {
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
    const place = { number: BigInt(block.number), hash: block.hash }
    hashes.set(place.number, block.hash)
    for (const transaction of block.transactions) {
      senders.set(transaction.hash, getAddress(transaction.from))
      const value = BigInt(transaction.value)
      if (value === 0n || !transaction.to) continue
      transfers.push({
        hash: transaction.hash,
        place: 'native',
        block: place,
        token: NATIVE_COIN,
        from: getAddress(transaction.from),
        to: getAddress(transaction.to),
        value,
      })
    }
  }
  return { transfers, hashes, senders }
}

/** A call of `trace_block` (Parity/OpenEthereum format, as anvil and Erigon answer it). */
interface CallTrace {
  type: string
  action: { callType?: string; from?: Address; to?: Address; value?: `0x${string}` }
  error?: string
  traceAddress: number[]
  transactionHash?: Hash
  blockNumber?: number
}

/** An internal transfer and its block's number; the block's hash comes from the native read. */
export type InternalTransfer = Omit<IncomingTransfer, 'block'> & { blockNumber: bigint }

/**
 * Native coin moved by contracts (internal calls with value, e.g. a router unwrapping to a
 * user), from `trace_block`; the top-level call is the transaction's own value, read elsewhere.
 * A block whose traces are too big to read whole is read with `trace_filter` for calls to known
 * wallets, FILTER_RECIPIENTS_MAX a query.
 */
export async function readInternalTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
  knownWallets: () => Promise<readonly Address[]>,
): Promise<InternalTransfer[]> {
  const numbers = blockNumbers(fromBlock, toBlock)
  const blocks = await readSplitting(
    client,
    numbers,
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
  const transfers: InternalTransfer[] = []
  for (const [index, traces] of blocks.entries()) {
    for (const trace of traces) {
      const { action } = trace
      const value = action.value ? BigInt(action.value) : 0n
      if (trace.type !== 'call' || action.callType !== 'call' || trace.error) continue
      if (trace.traceAddress.length === 0 || value === 0n || !trace.transactionHash) continue
      if (!action.from || !action.to) continue
      transfers.push({
        hash: trace.transactionHash,
        place: `trace:${trace.traceAddress.join('.')}`,
        blockNumber: numbers[index] ?? BigInt(trace.blockNumber ?? 0),
        token: NATIVE_COIN,
        from: getAddress(action.from),
        to: getAddress(action.to),
        value,
      })
    }
  }
  return transfers
}
