import { inject } from 'vitest'

export interface ApiResponse {
  status: number
  body: {
    ok: boolean
    result?: Record<string, unknown>
    error?: { code: number; message?: string }
  }
}

/** One request to the local stack's API over HTTP (serverless offline), as a client sends it. */
export async function apiCall(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const response = await fetch(`${inject('apiUrl')}/api/v1${path}`, {
    method,
    headers: {
      accept: '*/*',
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  return { status: response.status, body: (await response.json()) as ApiResponse['body'] }
}
