import { type Address, getAddress, type Hash, type Hex } from 'viem'
import type { ChainClient } from '../chain/clients'
import { readSplitting, requestOnce } from '../chain/splitReads'
import type { NetworkName } from '../networkNames'
import type { IncomingTransfer, RpcTransaction } from './transferSources'

// What a deposit's transaction did: from its receipt, or, for a token log whose receipt is too big
// to read (a transaction with thousands of logs), from the scan.

/** A receipt as eth_getTransactionReceipt answers it (the fields a deposit needs). */
interface RpcReceipt {
  status: Hex
  from: Address
  blockHash: Hash
  blockNumber: Hex
  gasUsed: Hex
}

export interface DepositOutcome {
  status: 'successful' | 'failed'
  gasUsed: bigint
  blockNumber: bigint
  blockHash: Hash
  /** The transaction's sender: a wallet's own transaction is not a deposit of it. */
  from: Address
}

const TOO_BIG = Symbol('receipt too big to read')

/**
 * The receipts of `hashes`, BATCH_SIZE a request and halved when too big (a transaction's receipt
 * carries all its logs: one with a burst of them is megabytes); one too big even alone is
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

/**
 * The outcome of each transaction of `transfers`, by hash. `senders`: the scan's, for receipts too
 * big to read (asked of the node otherwise, e.g. for a lagging wallet's transfers). A node lagging
 * the one that served the block (no receipt yet), or native value whose receipt cannot be read,
 * fails the run, so the range is read again.
 */
export async function readDepositOutcomes(
  client: ChainClient,
  network: NetworkName,
  transfers: readonly IncomingTransfer[],
  senders: ReadonlyMap<Hash, Address>,
): Promise<Map<Hash, DepositOutcome>> {
  const byHash = new Map(transfers.map((transfer) => [transfer.hash, transfer] as const))
  const withNative = new Set(
    transfers.filter((transfer) => typeof transfer.place !== 'number').map(({ hash }) => hash),
  )
  const hashes = [...byHash.keys()]
  const receipts = await readReceipts(client, hashes)
  const tooBig = hashes.filter((_, index) => receipts[index] === TOO_BIG)
  const unknownSenders = tooBig.filter((hash) => !senders.has(hash))
  const fetched = await readSplitting(client, unknownSenders, (hash) =>
    requestOnce<RpcTransaction | null>(client, 'eth_getTransactionByHash', [hash]),
  )
  const senderOf = new Map(senders)
  for (const transaction of fetched) {
    if (transaction) senderOf.set(transaction.hash, getAddress(transaction.from))
  }
  const outcomes = new Map<Hash, DepositOutcome>()
  for (const [index, hash] of hashes.entries()) {
    const receipt = receipts[index]
    if (!receipt) throw new Error(`${network}: no receipt yet for ${hash}; retrying later`)
    if (receipt === TOO_BIG) {
      // Only a successful transaction leaves logs, and the log names its block; its gas is not
      // known (0). Native value needs the status: that run fails.
      const transfer = byHash.get(hash)
      const sender = senderOf.get(hash)
      if (!transfer || withNative.has(hash) || !sender) {
        throw new Error(`${network}: the receipt of ${hash} is too big to read`)
      }
      outcomes.set(hash, {
        status: 'successful',
        gasUsed: 0n,
        blockNumber: transfer.block.number,
        blockHash: transfer.block.hash,
        from: sender,
      })
      continue
    }
    outcomes.set(hash, {
      status: receipt.status === '0x1' ? 'successful' : 'failed',
      gasUsed: BigInt(receipt.gasUsed),
      blockNumber: BigInt(receipt.blockNumber),
      blockHash: receipt.blockHash,
      from: getAddress(receipt.from),
    })
  }
  return outcomes
}
