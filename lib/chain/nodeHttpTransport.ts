import { channel } from 'node:diagnostics_channel'
import {
  createTransport,
  type EIP1193RequestFn,
  HttpRequestError,
  RpcRequestError,
  type Transport,
} from 'viem'
import {
  type JsonRpcAnswer,
  type JsonRpcCall,
  isRpcError,
  post,
  type Target,
  targetOf,
} from './rpcPost'
import { countRpcCall, rpcCallsPaid } from './rpcMeter'

/**
 * Each POST's life, for the counters' sequential steps: `{ exchange, phase: 'open' }` when its
 * first call is asked for (not when the batch leaves, a macrotask later, so calls made beside a
 * DynamoDB command never look as if they waited for it), `{ exchange, phase: 'close' }` once its
 * answers are handed out.
 */
const rpcExchangeChannel = channel('wallet-backend:rpc-exchange')

interface RpcExchangeMessage {
  exchange: number
  phase: 'open' | 'close'
}

let nextExchange = 0

function openExchange(): number {
  nextExchange += 1
  if (rpcExchangeChannel.hasSubscribers) {
    rpcExchangeChannel.publish({
      exchange: nextExchange,
      phase: 'open',
    } satisfies RpcExchangeMessage)
  }
  return nextExchange
}

function closeExchange(exchange: number): void {
  if (rpcExchangeChannel.hasSubscribers) {
    rpcExchangeChannel.publish({ exchange, phase: 'close' } satisfies RpcExchangeMessage)
  }
}

export interface NodeHttpTransportConfig {
  /** Per HTTP request, from writing it to the last byte of the answer. */
  timeout: number
  /** Calls made in the same tick go out as one JSON array. */
  batch: boolean
  /**
   * Calls per JSON array at most (providers cap batches: some at 10, many at 100 or 1,000); more
   * made in one tick go as several arrays at once, one round trip still.
   */
  batchSize?: number
  retryCount: number
  retryDelay?: number
}

interface Pending {
  call: JsonRpcCall
  resolve: (answer: JsonRpcAnswer) => void
  reject: (error: unknown) => void
}

/**
 * The calls' scheduler: calls made in one tick share a POST (as viem's batch scheduler, `wait: 0`),
 * at most `batchSize` a JSON array, each POST's exchange published as it opens and closes.
 */
function batchingScheduler(
  url: string,
  config: NodeHttpTransportConfig,
): (call: JsonRpcCall) => Promise<JsonRpcAnswer> {
  let target: Target | undefined
  let queue: Pending[] = []

  const send = async (calls: Pending[], exchange: number) => {
    const size = config.batch ? (config.batchSize ?? calls.length) : 1
    const chunks: Pending[][] = []
    for (let start = 0; start < calls.length; start += Math.max(size, 1)) {
      chunks.push(calls.slice(start, start + Math.max(size, 1)))
    }
    // Over the cap, several arrays leave at once and are waited for together: one exchange.
    const settlements = await Promise.all(chunks.map((chunk) => postChunk(chunk)))
    // Closed before the callers' continuations, which run as microtasks after the settlements.
    closeExchange(exchange)
    for (const settle of settlements) settle()
  }

  /** One POST of `calls`; what it answered, to hand to the callers once the exchange closed. */
  const postChunk = async (calls: Pending[]): Promise<() => void> => {
    target ??= targetOf(url)
    try {
      const data = config.batch
        ? await post(
            target,
            calls.map((pending) => pending.call),
            config.timeout,
          )
        : await post(target, calls[0]!.call, config.timeout)
      const answers = Array.isArray(data) ? (data as JsonRpcAnswer[]) : [data as JsonRpcAnswer]
      if (!config.batch) return () => calls[0]!.resolve(answers[0] ?? {})
      const byId = new Map(answers.map((answer) => [answer.id, answer]))
      return () => {
        for (const pending of calls) {
          const answer = byId.get(pending.call.id) ?? (isRpcError(data) ? data : undefined)
          if (answer) pending.resolve(answer)
          else
            pending.reject(
              new HttpRequestError({
                body: pending.call,
                details: `no answer to call ${pending.call.id}`,
                url,
              }),
            )
        }
      }
    } catch (error) {
      return () => {
        for (const pending of calls) pending.reject(error)
      }
    }
  }

  return (call: JsonRpcCall) =>
    new Promise<JsonRpcAnswer>((resolve, reject) => {
      countRpcCall()
      const pending = { call, resolve, reject }
      if (!config.batch) {
        void send([pending], openExchange())
        return
      }
      queue.push(pending)
      if (queue.length === 1) {
        const exchange = openExchange()
        setTimeout(() => {
          const calls = queue
          queue = []
          void send(calls, exchange)
        }, 0)
      }
    })
}

let nextId = 0

/**
 * A viem transport over `node:http`/`https` with a keep-alive agent, in place of viem's `http()`,
 * which goes through `fetch`: undici and its `Headers` load on the first request, which cost a
 * cold function 30–35 ms of its first RPC call. Same behaviour otherwise: calls made in one tick
 * share a POST (as viem's batch scheduler, `wait: 0`), the timeout per POST, retries through
 * viem's `createTransport`, and viem's error classes.
 */
export function nodeHttp(url: string, config: NodeHttpTransportConfig): Transport {
  const schedule = batchingScheduler(url, config)

  return () =>
    createTransport({
      key: 'nodeHttp',
      name: 'JSON-RPC over node:http',
      type: 'http',
      retryCount: config.retryCount,
      retryDelay: config.retryDelay,
      timeout: config.timeout,
      request: (async ({ method, params }: { method: string; params?: unknown }) => {
        // A metered request's calls leave once its client's budget is charged (rpcMeter.ts); the
        // calls of one tick still share a POST (they all resume in one microtask turn).
        const paid = rpcCallsPaid()
        if (paid) await paid
        nextId += 1
        const call: JsonRpcCall = { jsonrpc: '2.0', id: nextId, method, params }
        const { error, result } = await schedule(call)
        if (error) throw new RpcRequestError({ body: { method, params }, error, url })
        return result
      }) as EIP1193RequestFn,
    })
}
