import { channel } from 'node:diagnostics_channel'
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import {
  createTransport,
  type EIP1193RequestFn,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  type Transport,
} from 'viem'
import { countRpcCall, rpcCallsPaid } from './rpcMeter'

/**
 * Every JSON-RPC POST body this transport sends, published before it leaves (a no-op without a
 * subscriber): how the request-cost tests and the bench count RPC calls and round trips. The
 * three channels are subscribed to by name (tests/support/rpcChannels.ts).
 */
const rpcRequestChannel = channel('wallet-backend:rpc-request')

/**
 * Each POST's life, for the counters' sequential steps: `{ exchange, phase: 'open' }` when its
 * first call is asked for (not when the batch leaves, a macrotask later, so calls made beside a
 * DynamoDB command never look as if they waited for it), `{ exchange, phase: 'close' }` once its
 * answers are handed out.
 */
const rpcExchangeChannel = channel('wallet-backend:rpc-exchange')

/**
 * The size in bytes of every answer body received (also one cut off at the cap), published as it
 * ends: how the indexer's tests and bench count what a provider sent.
 */
const rpcResponseChannel = channel('wallet-backend:rpc-response')

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

// Keep-alive so a warm container reuses its TLS connection to the node; one agent per scheme.
const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
}

/**
 * An answer larger than this is dropped unread (HttpRequestError with RESPONSE_TOO_LARGE): a
 * Lambda cannot hold an unbounded body. The deposit indexer splits what it asked instead.
 */
export const MAX_RESPONSE_BYTES = 10_485_760
export const RESPONSE_TOO_LARGE = 'response body too large'

// A type alias, not an interface, so it fits viem's error `body` ({ [x: string]: unknown }).
type JsonRpcCall = {
  jsonrpc: '2.0'
  id: number
  method: string
  params?: unknown
}

interface JsonRpcAnswer {
  id?: number
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

interface Target {
  /** The URL as configured, for viem's errors (which our log formatter masks). */
  url: string
  options: { hostname: string; port: string; path: string; headers: Record<string, string> }
  request: typeof httpRequest
  agent: HttpAgent
}

function targetOf(url: string): Target {
  const parsed = new URL(url)
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  // Credentials in the URL become Basic auth, as viem's http transport does.
  if (parsed.username) {
    const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`
  }
  const https = parsed.protocol === 'https:'
  return {
    url,
    options: {
      hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
      port: parsed.port,
      path: `${parsed.pathname}${parsed.search}`,
      headers,
    },
    request: https ? httpsRequest : httpRequest,
    agent: https ? agents.https : agents.http,
  }
}

function isRpcError(value: unknown): value is { error: { code: number; message: string } } {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'number' && typeof error.message === 'string'
}

/**
 * POSTs one JSON-RPC body and answers its parsed JSON, failing as viem's http transport fails
 * (HttpRequestError, RpcRequestError for a non-2xx JSON-RPC error, TimeoutError) so retries,
 * failover and chainError.ts treat both alike.
 */
function post(
  target: Target,
  body: JsonRpcCall | JsonRpcCall[],
  timeout: number,
): Promise<unknown> {
  const text = JSON.stringify(body)
  if (rpcRequestChannel.hasSubscribers) rpcRequestChannel.publish(text)
  const { url } = target
  return new Promise((resolve, reject) => {
    let settled = false
    // Bytes of the answer so far: published however it ends (a timeout or the cap included).
    let size = 0
    const finish = (error: Error | undefined, value?: unknown) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (error) reject(error)
      else resolve(value)
    }
    const request = target.request(
      {
        ...target.options,
        method: 'POST',
        agent: target.agent,
        headers: { ...target.options.headers, 'Content-Length': String(Buffer.byteLength(text)) },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => {
          if (settled) return
          size += chunk.length
          if (size > MAX_RESPONSE_BYTES) {
            if (rpcResponseChannel.hasSubscribers) rpcResponseChannel.publish(size)
            finish(new HttpRequestError({ body, details: RESPONSE_TOO_LARGE, url }))
            request.destroy()
            return
          }
          chunks.push(chunk)
        })
        response.on('error', (cause) => finish(new HttpRequestError({ body, cause, url })))
        response.on('end', () => {
          if (settled) return
          if (rpcResponseChannel.hasSubscribers) rpcResponseChannel.publish(size)
          const status = response.statusCode ?? 0
          const raw = Buffer.concat(chunks).toString('utf8')
          let data: unknown
          try {
            data = JSON.parse(raw || '{}')
          } catch (cause) {
            if (status >= 200 && status < 300) {
              finish(new HttpRequestError({ body, cause: cause as Error, url, status }))
              return
            }
            data = { error: raw }
          }
          if (status >= 200 && status < 300) {
            finish(undefined, data)
            return
          }
          // A server refusing a whole batch answers one error, bare or in a one-element array.
          const error = Array.isArray(data) && data.length === 1 ? (data[0] as unknown) : data
          finish(
            isRpcError(error)
              ? new RpcRequestError({ body, error: error.error, url, status })
              : new HttpRequestError({
                  body,
                  details:
                    JSON.stringify((error as { error?: unknown }).error) || response.statusMessage,
                  url,
                  status,
                }),
          )
        })
      },
    )
    const timer = setTimeout(() => {
      if (!settled && rpcResponseChannel.hasSubscribers) rpcResponseChannel.publish(size)
      finish(new TimeoutError({ body, url }))
      request.destroy()
    }, timeout)
    request.on('error', (cause) => finish(new HttpRequestError({ body, cause, url })))
    request.end(text)
  })
}

interface Pending {
  call: JsonRpcCall
  resolve: (answer: JsonRpcAnswer) => void
  reject: (error: unknown) => void
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

  const schedule = (call: JsonRpcCall) =>
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
