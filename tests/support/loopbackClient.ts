import { request } from 'node:http'

export interface LoopbackAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: unknown
}

/**
 * One HTTP request sent from a chosen loopback address (127.0.0.0/8 is all local on Linux), so a
 * test can be several clients, each with its own source address, as API Gateway's callers are.
 * Node's fetch cannot choose its source address without undici's Agent; node:http can.
 */
export function sendFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<LoopbackAnswer> {
  const text = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress,
        headers: {
          accept: '*/*',
          ...(text !== undefined && { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('error', reject)
        answer.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          let body: unknown = raw
          try {
            body = JSON.parse(raw)
          } catch {
            // not JSON: the raw text is the body
          }
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(text)
  })
}

/** A GET from `localAddress`: its status and JSON body. */
export async function getFrom(
  localAddress: string,
  url: string,
): Promise<{ status: number; body: unknown }> {
  const { status, body } = await sendFrom(localAddress, url)
  return { status, body }
}
