import { type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../lib/constants'
import { balanceOf, deployment, devnet, fundedAccount } from '../support/devnetAccounts'
import { apiCall } from '../support/apiCall'

async function signIn(privateKey: Hex): Promise<string> {
  const account = privateKeyToAccount(privateKey)
  const nonce = await apiCall('GET', `/auth/nonce/${account.address}`)
  const { message } = nonce.body.result as { message: string }
  const login = await apiCall('POST', '/auth/login', {
    body: { address: account.address, signature: await account.signMessage({ message }) },
  })
  return (login.body.result as { access: string }).access
}

describe('a trader over HTTP (serverless offline)', () => {
  it('lists tokens, quotes a swap, then swaps and gets the quoted amount', async () => {
    const dex = deployment('ethereum')
    const account = await fundedAccount('ethereum', { native: parseEther('20') })
    const token = await signIn(account.privateKey)
    const link = dex.token('LINK')

    const listed = await apiCall('GET', '/swap/tokens?sort=symbol&direction=asc&limit=100')
    const query = new URLSearchParams({
      amount: '1.5',
      address0: NATIVE_COIN,
      decimals0: '18',
      address1: link,
      decimals1: '18',
      slippageBps: '0',
    })
    const client = devnet('ethereum')
    const quotedAt = await client.getBlockNumber({ cacheTime: 0 })
    const quote = await apiCall('GET', `/swap/quote/ethereum?${query.toString()}`)
    const body = {
      amount: '1.5',
      address0: NATIVE_COIN,
      decimals0: 18,
      address1: link,
      decimals1: 18,
    }
    const headers = { 'idempotency-key': `e2e-${account.address}` }
    const swapped = await apiCall('POST', `/swap/tokens/ethereum/${account.privateKey}`, {
      token,
      body,
      headers,
    })
    const retried = await apiCall('POST', `/swap/tokens/ethereum/${account.privateKey}`, {
      token,
      body,
      headers,
    })

    expect(listed.status).toBe(200)
    expect((listed.body.result as { tokens: Array<{ address: string }> }).tokens).toContainEqual(
      expect.objectContaining({ address: link, symbol: 'LINK', network: 'ethereum' }),
    )
    expect(quote.status).toBe(200)
    expect(swapped).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          txId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          // Simulated before the broadcast (DECISIONS §10.2): the swap's own, with nothing amiss.
          preview: expect.objectContaining({ issues: [] }),
        },
      },
    })
    const { txId } = swapped.body.result as { txId: Hex }
    // The retry sends and simulates nothing: the first answer's transaction, without a preview.
    expect(retried).toEqual({ status: 200, body: { ok: true, result: { txId } } })
    const receipt = await client.waitForTransactionReceipt({ hash: txId })
    const received = await balanceOf('ethereum', account.address, link)
    const { amountOutMin } = quote.body.result as { amountOutMin: Hex }
    expect(receipt.status).toBe('success')
    expect(
      await client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    ).toBe(1)
    // Other files trade on this pool too: the quoted amount holds when nobody did in between.
    if (receipt.blockNumber === quotedAt + 1n) expect(received).toBe(BigInt(amountOutMin))
    expect(received).toBeGreaterThan((BigInt(amountOutMin) * 99n) / 100n)
  })

  it('answers 401004 over HTTP for a key that is not the signed-in wallet', async () => {
    const [owner, other] = await Promise.all([
      fundedAccount('altchain', {}),
      fundedAccount('altchain', {}),
    ])
    const token = await signIn(owner.privateKey)

    const response = await apiCall('POST', `/transfer/tokens/altchain/${other.privateKey}`, {
      token,
      body: { to: owner.address, amount: '1' },
    })

    expect(response).toMatchObject({ status: 401, body: { ok: false, error: { code: 401004 } } })
  })
})
