import { channel } from 'node:diagnostics_channel'
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem'

// One JSON-RPC POST over node:http/https (nodeHttpTransport.ts batches calls into them).

/**
 * Every JSON-RPC POST body this transport sends, published before it leaves (a no-op without a
 * subscriber): how the request-cost tests and the bench count RPC calls and round trips. The
 * three channels are subscribed to by name (tests/support/rpcChannels.ts).
 */
const rpcRequestChannel = channel('wallet-backend:rpc-request')

/**
 * The size in bytes of every answer body received (also one cut off at the cap), published as it
 * ends: how the indexer's tests and bench count what a provider sent.
 */
const rpcResponseChannel = channel('wallet-backend:rpc-response')

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
export type JsonRpcCall = {
  jsonrpc: '2.0'
  id: number
  method: string
  params?: unknown
}

export interface JsonRpcAnswer {
  id?: number
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

export interface Target {
  /** The URL as configured, for viem's errors (which our log formatter masks). */
  url: string
  options: { hostname: string; port: string; path: string; headers: Record<string, string> }
  request: typeof httpRequest
  agent: HttpAgent
}

export function targetOf(url: string): Target {
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

export function isRpcError(value: unknown): value is { error: { code: number; message: string } } {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'number' && typeof error.message === 'string'
}

/**
 * What a finished answer settles its POST with: its parsed JSON for a 2xx, else the error viem's
 * http transport would throw (RpcRequestError for a JSON-RPC error, HttpRequestError otherwise).
 */
function settlementOf(
  body: JsonRpcCall | JsonRpcCall[],
  url: string,
  response: IncomingMessage,
  raw: string,
): { error: Error } | { value: unknown } {
  const status = response.statusCode ?? 0
  const ok = status >= 200 && status < 300
  let data: unknown
  try {
    data = JSON.parse(raw || '{}')
  } catch (cause) {
    if (ok) return { error: new HttpRequestError({ body, cause: cause as Error, url, status }) }
    data = { error: raw }
  }
  if (ok) return { value: data }
  // A server refusing a whole batch answers one error, bare or in a one-element array.
  const error = Array.isArray(data) && data.length === 1 ? (data[0] as unknown) : data
  return {
    error: isRpcError(error)
      ? new RpcRequestError({ body, error: error.error, url, status })
      : new HttpRequestError({
          body,
          details: JSON.stringify((error as { error?: unknown }).error) || response.statusMessage,
          url,
          status,
        }),
  }
}

/**
 * POSTs one JSON-RPC body and answers its parsed JSON, failing as viem's http transport fails
 * (HttpRequestError, RpcRequestError for a non-2xx JSON-RPC error, TimeoutError) so retries,
 * failover and chainError.ts treat both alike.
 */
export function post(
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
          const settlement = settlementOf(
            body,
            url,
            response,
            Buffer.concat(chunks).toString('utf8'),
          )
          if ('error' in settlement) finish(settlement.error)
          else finish(undefined, settlement.value)
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
