import { inject } from 'vitest'
import WebSocket from 'ws'
import { apiCall } from './apiCall'

// A real WebSocket client (the `ws` package) on the suite's WebSocket API (serverless offline),
// keeping every message it is sent, in order, and waiting for the ones a test expects.

export type WsMessage = Record<string, unknown> & { type?: string; sequence?: number }

export interface TestSocket {
  messages: WsMessage[]
  send(message: unknown): void
  /** Waits for the first message from `from` on (an index into `messages`) that matches. */
  next(
    match: (message: WsMessage) => boolean,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<WsMessage>
  close(): Promise<void>
}

/** A ticket from the HTTP API for the wallet of `access`. */
export async function wsTicket(access: string): Promise<string> {
  const answer = await apiCall('POST', '/ws/ticket', { token: access })
  if (answer.status !== 200)
    throw new Error(`ticket: ${answer.status} ${JSON.stringify(answer.body)}`)
  return (answer.body.result as { ticket: string }).ticket
}

/** The status the handshake was refused with, or 101 when it opened (then closed again). */
export async function handshakeStatus(query: string): Promise<number> {
  const socket = new WebSocket(`${inject('wsUrl')}${query}`)
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      socket.terminate()
    })
    socket.once('open', () => {
      resolve(101)
      socket.close()
    })
    socket.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error)
    })
  })
}

export async function openSocket(ticket: string): Promise<TestSocket> {
  const socket = new WebSocket(`${inject('wsUrl')}?ticket=${ticket}`)
  const messages: WsMessage[] = []
  const waiters = new Set<() => void>()
  socket.on('message', (data) => {
    messages.push(JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as WsMessage)
    for (const wake of waiters) wake()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  return {
    messages,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: (match, { from = 0, timeoutMs = 30_000 } = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(match)
          if (!found) return false
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
          return true
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(messages)}`),
          )
        }, timeoutMs)
        if (!check()) waiters.add(check)
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve()
        socket.once('close', () => resolve())
        socket.close()
      }),
  }
}
