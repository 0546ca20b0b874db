import { createWalletClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, inject, it } from 'vitest'
import { nonceResultSchema } from '../../schemas/auth'
import { sessionTokensSchema } from '../../schemas/session'
import { walletResultSchema } from '../../schemas/wallet'
import { apiCall } from '../support/apiCall'

describe('a wallet user over HTTP (serverless offline)', () => {
  it('creates a wallet, signs in with it, refreshes and logs out', async () => {
    const { result: mnemonicResult } = (await apiCall('GET', '/wallet/mnemonic')).body
    const { mnemonic } = mnemonicResult as { mnemonic: string }
    const created = await apiCall('POST', '/wallet/create', { body: { mnemonic } })
    const wallet = walletResultSchema.parse(created.body.result)
    const account = privateKeyToAccount(wallet.privateKey as `0x${string}`)
    const walletClient = createWalletClient({
      account,
      transport: http(inject('stackEnv').ETHEREUM_RPC_URL),
    })

    const nonce = nonceResultSchema.parse(
      (await apiCall('GET', `/auth/nonce/${wallet.address}`)).body.result,
    )
    const signature = await walletClient.signMessage({ account, message: nonce.message })
    const login = await apiCall('POST', '/auth/login', {
      body: { address: wallet.address, signature },
    })
    const tokens = sessionTokensSchema.parse(login.body.result)
    const refreshed = await apiCall('GET', '/auth/refresh', { token: tokens.refresh })
    const next = sessionTokensSchema.parse(refreshed.body.result)
    const logout = await apiCall('DELETE', '/auth/logout', { token: next.access })
    const afterLogout = await apiCall('DELETE', '/auth/logout', { token: next.access })
    const oldRefresh = await apiCall('GET', '/auth/refresh', { token: tokens.refresh })

    expect(account.address).toBe(wallet.address)
    expect(login.status).toBe(200)
    expect(refreshed.status).toBe(200)
    expect(logout).toEqual({ status: 200, body: { ok: true, result: {} } })
    expect(afterLogout).toMatchObject({ status: 401, body: { ok: false, error: { code: 401003 } } })
    expect(oldRefresh).toMatchObject({ status: 401, body: { ok: false, error: { code: 401003 } } })
  })

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
