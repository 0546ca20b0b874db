import { getBlock, getBlockNumber, getLogs, readContract } from 'viem/actions'
import {
  type Address,
  erc20Abi,
  formatEther,
  formatUnits,
  getAbiItem,
  getAddress,
  type Hash,
  type TransactionReceipt,
} from 'viem'
import { onChain, translateChainError } from '../chain/chainError'
import { type ChainClient, publicClient } from '../chain/clients'
import { findReceipt } from '../chain/findReceipt'
import { NETWORK_NAMES, type NetworkName } from '../config'
import { advanceDepositCursor, getDepositCursor } from '../db/depositCursor'
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
}

/** A transfer into some address, before we know whether the address is a wallet of ours. */
interface IncomingTransfer {
  hash: Hash
  /** Absent for the native value of a transaction. */
  logIndex?: number
  token: Address
  from: Address
  to: Address
  value: bigint
}

const TRANSFER_EVENT = getAbiItem({ abi: erc20Abi, name: 'Transfer' })
// Blocks requested at once; the batched transport sends them in one HTTP request.
const BLOCK_CONCURRENCY = 50

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

async function readNativeTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<IncomingTransfer[]> {
  const transfers: IncomingTransfer[] = []
  for (let start = fromBlock; start <= toBlock; start += BigInt(BLOCK_CONCURRENCY)) {
    const numbers: bigint[] = []
    for (let n = start; n <= toBlock && n < start + BigInt(BLOCK_CONCURRENCY); n += 1n) {
      numbers.push(n)
    }
    const blocks = await Promise.all(
      numbers.map((blockNumber) => getBlock(client, { blockNumber, includeTransactions: true })),
    )
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
  return transfers
}

async function readTokenTransfers(
  client: ChainClient,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<IncomingTransfer[]> {
  // Strict: logs that do not decode as an ERC-20 Transfer (ERC-721 shares its topic) are left out.
  const logs = await getLogs(client, { event: TRANSFER_EVENT, fromBlock, toBlock, strict: true })
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
  const [cursor, head] = await Promise.all([
    getDepositCursor(network),
    getBlockNumber(client, { cacheTime: 0 }),
  ])
  if (cursor === undefined) {
    // First run: follow the chain from here on; what came before the service is not a deposit.
    const advanced = await advanceDepositCursor(network, { from: undefined, to: head + 1n })
    return { network, recorded: 0, advanced }
  }
  if (cursor > head) return { network, recorded: 0, advanced: false }
  const fromBlock = cursor
  const toBlock =
    head < fromBlock + BigInt(maxBlocks) - 1n ? head : fromBlock + BigInt(maxBlocks) - 1n
  const transfers = (
    await Promise.all([
      readTokenTransfers(client, fromBlock, toBlock),
      readNativeTransfers(client, fromBlock, toBlock),
    ])
  ).flat()
  const known = await findKnownWallets(transfers.map((transfer) => transfer.to))
  const recorded = await recordDeposits(
    client,
    network,
    transfers.filter((transfer) => known.has(transfer.to.toLowerCase())),
  )
  // Only now: a run that failed above leaves the cursor, and the next run scans the range again.
  const advanced = await advanceDepositCursor(network, { from: fromBlock, to: toBlock + 1n })
  return { network, fromBlock, toBlock, recorded, advanced }
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
