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

/** Signs a wallet in over HTTP (nonce, SIWE signature, login) and returns its access token. */
export async function signInOverHttp(account: {
  address: `0x${string}`
  signMessage(parameters: { message: string }): Promise<`0x${string}`>
}): Promise<string> {
  const nonce = await apiCall('GET', `/auth/nonce/${account.address}`)
  const { message } = nonce.body.result as { message: string }
  const login = await apiCall('POST', '/auth/login', {
    body: { address: account.address, signature: await account.signMessage({ message }) },
  })
  return (login.body.result as { access: string }).access
}
