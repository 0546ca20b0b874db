import { describe, expect, inject, it } from 'vitest'

// serverless offline reads the same `provider.httpApi.cors` as the deployed HTTP API: on the
// local stage the local app's origin may call with a token, an Idempotency-Key and a JSON body.

const apiUrl = () => inject('apiUrl')
const localOrigin = () => `http://localhost:${new URL(apiUrl()).port}`

function preflight(origin: string) {
  return fetch(`${apiUrl()}/api/v1/swap/tokens/ethereum/somekey`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  })
}

describe('CORS over HTTP (serverless offline)', () => {
  it("lets the local app's origin send a token, a JSON body and an Idempotency-Key", async () => {
    const response = await preflight(localOrigin())

    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(localOrigin())
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    for (const header of ['authorization', 'content-type', 'idempotency-key']) {
      expect(allowed).toContain(header)
    }
  })

  it('gives another origin no CORS permission', async () => {
    const response = await preflight('https://evil.example')

    expect(response.headers.get('access-control-allow-origin')).not.toBe('https://evil.example')
  })

  it("allows the local app's origin on an actual request", async () => {
    const response = await fetch(`${apiUrl()}/api/v1/networks`, {
      headers: { origin: localOrigin() },
    })

    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(localOrigin())
  })
})
