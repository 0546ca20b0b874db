// Push from the wallet backend's WebSocket API (DECISIONS §10.3; docs/websocket.md): one topic
// followed across reconnections. It fetches a single-use ticket with the access token, connects,
// subscribes, and whenever the connection ends (API Gateway closes one idle for 10 minutes and
// every one after 2 hours; a network drop) connects again with a fresh ticket and resumes from the
// last sequence it delivered, so the app sees each message once and in order. Needs a global
// WebSocket (browsers, Node 22) and fetch, or the ones passed in.

export type PushTopic = 'trades'

export interface PushMessage {
  type: 'event'
  topic: PushTopic
  sequence: number
  [field: string]: unknown
}

export interface SubscribeOptions {
  /** The HTTP API's origin, as createWalletApi's `baseUrl`. */
  baseUrl: string
  /** The WebSocket API's URL, `wss://<id>.execute-api.<region>.amazonaws.com/<stage>`. */
  wsUrl: string
  /** The wallet's current access token (walletApi's session), read at each (re)connection. */
  accessToken: () => string | Promise<string>
  topic: PushTopic
  onMessage: (message: PushMessage) => void
  /** An error message of the API, or a reconnection that failed; reconnecting goes on. */
  onError?: (error: { status?: number; message: string }) => void
  /** Where to start: the last sequence the app already has (it gets every later one). */
  after?: number
  fetch?: typeof fetch
  WebSocket?: typeof WebSocket
  /** Waits before reconnection `attempt` (0, 1, ...); the default backs off 0.5 s to 30 s. */
  backoff?: (attempt: number) => number
}

export interface Subscription {
  /** The last sequence delivered (undefined before the first). */
  lastSequence(): number | undefined
  close(): void
}

// API Gateway ends every connection after 2 h: reconnect a little before, on the client's terms.
const RECONNECT_BEFORE_MS = 2 * 60 * 60 * 1000 - 5 * 60 * 1000

/** A single-use ticket for the connection, with the wallet's access token. */
async function fetchTicket(send: typeof fetch, options: SubscribeOptions): Promise<string> {
  const response = await send(`${options.baseUrl}/api/v1/ws/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await options.accessToken()}` },
  })
  const body = (await response.json()) as {
    result?: { ticket?: string }
    error?: { message?: string }
  }
  if (!response.ok || !body.result?.ticket) {
    throw Object.assign(new Error(body.error?.message ?? `ticket: ${response.status}`), {
      status: response.status,
    })
  }
  return body.result.ticket
}

/** The first message on a connection: subscribe afresh, or resume after the last delivered. */
function opening(topic: PushTopic, last: number | undefined): string {
  return JSON.stringify(
    last === undefined
      ? { action: 'subscribe', topic }
      : { action: 'resume', topic, sequence: last },
  )
}

export function subscribe(options: SubscribeOptions): Subscription {
  const send = options.fetch ?? globalThis.fetch
  const Socket = options.WebSocket ?? globalThis.WebSocket
  const backoff = options.backoff ?? ((attempt) => Math.min(30_000, 500 * 2 ** attempt))
  let last = options.after
  let closed = false
  let attempt = 0
  let socket: WebSocket | undefined
  let renew: ReturnType<typeof setTimeout> | undefined

  const onData = (data: unknown) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>
    if (message.type === 'event' && message.topic === options.topic) {
      const sequence = Number(message.sequence)
      // A message already delivered (sent twice around a reconnection) is skipped.
      if (last !== undefined && sequence <= last) return
      last = sequence
      options.onMessage(message as PushMessage)
    } else if (message.type === 'error') {
      // Resuming past the 24 h the server keeps: start afresh from now.
      if (message.status === 404 && last !== undefined) {
        last = undefined
        socket?.send(JSON.stringify({ action: 'subscribe', topic: options.topic }))
      }
      options.onError?.({ status: Number(message.status), message: String(message.message) })
    }
  }

  const connect = async (): Promise<void> => {
    if (closed) return
    try {
      const url = `${options.wsUrl}?ticket=${encodeURIComponent(await fetchTicket(send, options))}`
      const opened = new Socket(url)
      socket = opened
      opened.onopen = () => {
        attempt = 0
        opened.send(opening(options.topic, last))
        renew = setTimeout(() => opened.close(), RECONNECT_BEFORE_MS)
      }
      opened.onmessage = (event) => onData(event.data)
      opened.onclose = () => {
        clearTimeout(renew)
        if (!closed) void later()
      }
    } catch (error) {
      options.onError?.({
        status: (error as { status?: number }).status,
        message: error instanceof Error ? error.message : String(error),
      })
      await later()
    }
  }

  const later = async () => {
    const delay = backoff(attempt)
    attempt += 1
    await new Promise((resolve) => setTimeout(resolve, delay))
    await connect()
  }

  void connect()
  return {
    lastSequence: () => last,
    close: () => {
      closed = true
      clearTimeout(renew)
      socket?.close()
    },
  }
}
