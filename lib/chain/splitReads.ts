import { getBlockNumber } from 'viem/actions'
import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import type { ChainClient } from './clients'
import { RESPONSE_TOO_LARGE } from './rpcPost'

// Reads a provider may refuse as too big (DECISIONS §7.2, §8.2): asked once, without retries, and
// asked again smaller when refused, rather than retried whole. The deposit indexer's reads.

/** Items (blocks, transactions) asked at once; the batched transport sends them in one POST. */
export const BATCH_SIZE = 50

/** A call as the indexer makes it: no retry, since what fails as too big is split instead. */
export function requestOnce<Result>(
  client: ChainClient,
  method: string,
  params: unknown[],
): Promise<Result> {
  return client.request<{ Parameters: unknown[]; ReturnType: Result }>(
    { method, params },
    { retryCount: 0 },
  )
}

export function inChunks<Item>(items: readonly Item[], size: number): Item[][] {
  const chunks: Item[][] = []
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size))
  }
  return chunks
}

// How hosted providers refuse an eth_getLogs range: too many blocks or too many results
// (tests/faults/providerLimits.test.ts quotes Infura, Alchemy, QuickNode, geth and zkSync).
const RANGE_REFUSED =
  /range|too many|more than \d+ results|limit exceeded|too large|too big|exceed|response size|query timeout/i

function isRangeRefusal(error: BaseError): boolean {
  return Boolean(
    error.walk(
      (cause) =>
        cause instanceof RpcRequestError &&
        (cause.code === -32005 || RANGE_REFUSED.test(cause.details)),
    ),
  )
}

/**
 * Whether the provider would not or could not serve a query, so that a smaller one may be served:
 * a refusal of the range, an answer over the transport's size cap, or no answer in time from a
 * node that still answers a cheap call (a node that does not is down, and splitting would only
 * multiply the timeouts).
 */
export async function isUnservable(client: ChainClient, error: unknown): Promise<boolean> {
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

/**
 * `read` of every item, BATCH_SIZE a POST, without retries: a batch the provider cannot serve
 * (isUnservable) is asked again in halves, and a single item still not served goes to
 * `readAlone` when there is one, or fails the read.
 */
export async function readSplitting<Item, Answer>(
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
