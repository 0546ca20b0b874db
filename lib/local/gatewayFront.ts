import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

export interface GatewayFront {
  url: string
  close(): Promise<void>
}

export interface StartGatewayFrontOptions {
  /** Where serverless offline's HTTP API listens (loopback). */
  upstreamPort: number
  /** The port the stack's users call, on 127.0.0.1. */
  port: number
}

/** What API Gateway (HTTP API) answers when the Lambda behind a route times out or crashes. */
export const GATEWAY_ANSWERS = {
  timeout: { status: 503, body: { message: 'Service Unavailable' } },
  crash: { status: 500, body: { message: 'Internal Server Error' } },
  unreachable: { status: 503, body: { message: 'Service Unavailable' } },
} as const

// serverless offline 13 answers a Lambda that timed out (its message `[504] - Lambda timeout.`)
// or threw past the handler, on an HTTP API with payload 2.0, with 200 and this object as the
// body: the function's stack trace, to anyone calling. No handler of ours answers with it.
interface OfflineErrorBody {
  errorMessage: string
  errorType: string
  stackTrace: unknown[]
}

function isOfflineErrorBody(body: unknown): body is OfflineErrorBody {
  if (typeof body !== 'object' || body === null) return false
  const { errorMessage, errorType, stackTrace } = body as Record<string, unknown>
  return (
    typeof errorMessage === 'string' && typeof errorType === 'string' && Array.isArray(stackTrace)
  )
}

/** The gateway's answer in place of offline's, or undefined when offline's is the function's own. */
export function gatewayAnswerFor(
  status: number,
  body: string,
): (typeof GATEWAY_ANSWERS)['timeout' | 'crash'] | undefined {
  if (status !== 200) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  if (!isOfflineErrorBody(parsed)) return undefined
  return /\[504\]|timeout/i.test(parsed.errorMessage)
    ? GATEWAY_ANSWERS.timeout
    : GATEWAY_ANSWERS.crash
}

function send(
  response: ServerResponse,
  answer: { status: number; body: { message: string } },
): void {
  const text = JSON.stringify(answer.body)
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  response.end(text)
}

function forward(
  agent: Agent,
  upstreamPort: number,
  incoming: IncomingMessage,
  response: ServerResponse,
) {
  const upstream = request(
    {
      agent,
      host: '127.0.0.1',
      port: upstreamPort,
      method: incoming.method,
      path: incoming.url,
      // As sent (Host included), so offline builds the same event it would from the client.
      headers: incoming.headers,
      // From the client's own loopback address, so offline's sourceIp is the caller's, as API
      // Gateway's is (DECISIONS §9.6): per-client budgets must not pool every local client.
      localAddress: incoming.socket.remoteAddress,
    },
    (answer) => {
      const status = answer.statusCode ?? 502
      const json = String(answer.headers['content-type'] ?? '').includes('application/json')
      if (status !== 200 || !json) {
        response.writeHead(status, answer.headers)
        answer.pipe(response)
        return
      }
      // A 200 JSON body is read whole to tell a function's answer from offline's error object.
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('error', () => response.destroy())
      answer.on('end', () => {
        const body = Buffer.concat(chunks)
        const replaced = gatewayAnswerFor(status, body.toString('utf8'))
        if (replaced) {
          send(response, replaced)
          return
        }
        response.writeHead(status, answer.headers)
        response.end(body)
      })
    },
  )
  upstream.on('error', () => {
    if (!response.headersSent) send(response, GATEWAY_ANSWERS.unreachable)
    else response.destroy()
  })
  incoming.on('aborted', () => upstream.destroy())
  incoming.pipe(upstream)
}

/**
 * The stack's HTTP port: every request goes on, unchanged, to serverless offline, and every
 * answer comes back unchanged, except where offline departs from the deployed API Gateway. A
 * Lambda timeout or crash comes back from offline as 200 with `{errorMessage, errorType,
 * stackTrace}`; the gateway answers 503 `{"message":"Service Unavailable"}` (timeout) or 500
 * `{"message":"Internal Server Error"}` (crash), and so does this.
 */
export async function startGatewayFront(options: StartGatewayFrontOptions): Promise<GatewayFront> {
  const agent = new Agent({ keepAlive: true })
  const server: Server = createServer((incoming, response) =>
    forward(agent, options.upstreamPort, incoming, response),
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: '127.0.0.1', port: options.port }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      agent.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
