import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { nonceResultSchema } from '../../schemas/auth'
import { apiCall } from '../support/apiCall'

// The whole happy path (create, sign in, refresh, log out) is the wallet journey in
// journeys.test.ts; these are the refusals.
describe('a wallet user over HTTP (serverless offline)', () => {
  it('answers a missing token with 401001 in the envelope', async () => {
    const response = await apiCall('DELETE', '/auth/logout')

    expect(response).toMatchObject({ status: 401, body: { ok: false, error: { code: 401001 } } })
  })

  it('refuses a signature by another key with 401004', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const nonce = nonceResultSchema.parse(
      (await apiCall('GET', `/auth/nonce/${owner.address}`)).body.result,
    )
    const stranger = privateKeyToAccount(generatePrivateKey())
    const signature = await stranger.signMessage({ message: nonce.message })

    const response = await apiCall('POST', '/auth/login', {
      body: { address: owner.address, signature },
    })

    expect(response).toMatchObject({ status: 401, body: { ok: false, error: { code: 401004 } } })
  })
})
