import {
  type Address,
  decodeEventLog,
  encodeEventTopics,
  erc20Abi,
  getAbiItem,
  getAddress,
  type Hash,
  type Hex,
  toHex,
} from 'viem'
import type { ChainClient } from './clients'
import { inChunks, isUnservable, requestOnce } from './splitReads'

// ERC-20 Transfer logs of a list of tokens over a block range, asked as a provider will serve them
// (DECISIONS §7.2, §8.2): within the widest range it takes, halved when refused or too big, and a
// single block still too big read with recipient filters; in block order, so a reader can stop
// between pieces and know which blocks it has read whole.

/** A decoded Transfer log, with where it is. */
export interface TransferLog {
  hash: Hash
  logIndex: number
  blockNumber: bigint
  blockHash: Hash
  token: Address
  from: Address
  to: Address
  value: bigint
}

// What one eth_getLogs filter may hold: geth serves at most 1,000 addresses and 1,000 values per
// topic position, and hosted providers follow it.
const FILTER_ADDRESSES_MAX = 1000
export const FILTER_RECIPIENTS_MAX = 1000

const TRANSFER_EVENT = getAbiItem({ abi: erc20Abi, name: 'Transfer' })

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

interface LogFilter {
  fromBlock: bigint
  toBlock: bigint
  tokens: readonly Address[]
  /** Topic 2 (`to`) among these; absent: any recipient. */
  recipients?: readonly Address[]
}

export interface ReadTransferLogsParameters {
  fromBlock: bigint
  toBlock: bigint
  /** The widest range asked at once (`<NET>_LOGS_MAX_BLOCKS`). */
  maxRange: bigint
  tokens: readonly Address[]
  /** Only transfers to these (topic 2), e.g. one wallet's; absent: to anyone. */
  recipients?: readonly Address[]
  /** The recipients to filter a single block by when it is too big to read whole. */
  knownWallets: () => Promise<readonly Address[]>
  /** Asked after each piece with the logs read so far: false stops before the next piece. */
  more?: (logsRead: number) => boolean
}

export interface ReadTransferLogsReturnType {
  logs: TransferLog[]
  /** The last block whose logs were all read; `fromBlock - 1` when none was. */
  readTo: bigint
}

/** One eth_getLogs of Transfer events (no retry: a query the provider cannot serve is split). */
function readLogs(client: ChainClient, filter: LogFilter): Promise<RpcLog[]> {
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

/** A log as an ERC-20 Transfer, or undefined for one that is not (ERC-721 shares the topic). */
function decodeTransfer(log: RpcLog): TransferLog | undefined {
  const { transactionHash, logIndex, blockNumber, blockHash } = log
  if (log.removed || !transactionHash || logIndex === null || !blockNumber || !blockHash) {
    return undefined
  }
  try {
    const { args } = decodeEventLog({
      abi: [TRANSFER_EVENT],
      data: log.data,
      topics: log.topics as [Hex],
      strict: true,
    })
    if (!args) return undefined
    return {
      hash: transactionHash,
      logIndex: Number(logIndex),
      blockNumber: BigInt(blockNumber),
      blockHash,
      token: getAddress(log.address),
      from: getAddress(args.from),
      to: getAddress(args.to),
      value: args.value,
    }
  } catch {
    return undefined
  }
}

/**
 * The Transfer logs of `tokens` in a range, in pieces of at most `maxRange` blocks and
 * FILTER_ADDRESSES_MAX tokens: a stranger's contract adds nothing to the answer. A piece the
 * provider cannot serve is halved; a single block still too big is read with recipient filters,
 * FILTER_RECIPIENTS_MAX a query (halved again if need be), so that a burst of transfers delays a
 * reader but never stalls it; one block to one recipient still too big fails the read. Pieces
 * are read in block order, and `more` may stop the read between two of them.
 */
export async function readTransferLogs(
  client: ChainClient,
  parameters: ReadTransferLogsParameters,
): Promise<ReadTransferLogsReturnType> {
  const { tokens, recipients, knownWallets, more = () => true } = parameters
  const logs: TransferLog[] = []
  let readTo = parameters.fromBlock - 1n
  // No token: nothing to ask (an empty address filter means any address).
  if (tokens.length === 0) return { logs, readTo: parameters.toBlock }

  /** The logs of a range for every token chunk, or the refusal of a query not served. */
  const tryRange = async (
    filter: Omit<LogFilter, 'tokens'>,
  ): Promise<{ served: RpcLog[] } | { refused: unknown }> => {
    const served: RpcLog[] = []
    for (const chunk of inChunks(tokens, FILTER_ADDRESSES_MAX)) {
      try {
        served.push(...(await readLogs(client, { ...filter, tokens: chunk })))
      } catch (error) {
        if (!(await isUnservable(client, error))) throw error
        return { refused: error }
      }
    }
    return { served }
  }

  /** One block's logs to `among`, in chunks halved until served. */
  const byRecipients = async (block: bigint, among: readonly Address[]): Promise<RpcLog[]> => {
    const answers: RpcLog[] = []
    for (const chunk of inChunks(among, FILTER_RECIPIENTS_MAX)) {
      const answer = await tryRange({ fromBlock: block, toBlock: block, recipients: chunk })
      if ('served' in answer) {
        answers.push(...answer.served)
        continue
      }
      // One block, one recipient, and still too much: nothing smaller to ask; the read fails.
      if (chunk.length === 1) throw answer.refused
      const half = Math.ceil(chunk.length / 2)
      answers.push(...(await byRecipients(block, chunk.slice(0, half))))
      answers.push(...(await byRecipients(block, chunk.slice(half))))
    }
    return answers
  }

  /** Reads [from, to] whole or in halves, in order; false once `more` said stop. */
  const walk = async (fromBlock: bigint, toBlock: bigint): Promise<boolean> => {
    const answer = await tryRange({ fromBlock, toBlock, recipients })
    if (!('served' in answer) && fromBlock < toBlock) {
      const middle = fromBlock + (toBlock - fromBlock) / 2n
      return (await walk(fromBlock, middle)) && walk(middle + 1n, toBlock)
    }
    const served =
      'served' in answer
        ? answer.served
        : await byRecipients(fromBlock, recipients ?? (await knownWallets()))
    for (const log of served) {
      const transfer = decodeTransfer(log)
      if (transfer) logs.push(transfer)
    }
    readTo = toBlock
    return more(logs.length)
  }

  const { fromBlock, toBlock, maxRange } = parameters
  for (let start = fromBlock; start <= toBlock; start += maxRange) {
    const end = start + maxRange - 1n < toBlock ? start + maxRange - 1n : toBlock
    if (!(await walk(start, end))) break
  }
  return { logs, readTo }
}
