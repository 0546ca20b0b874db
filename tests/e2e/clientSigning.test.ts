import { type Address, type Hex, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { apiCall, signInOverHttp } from '../support/apiCall'
import { balanceOf, deployment, devnet, fundedAccount } from '../support/devnetAccounts'
import { randomAddress } from '../support/marketFixtures'
import { type PreparedTransaction, signAll } from '../support/signPrepared'

// A wallet app that keeps its key (DECISIONS §7.3), over HTTP through serverless offline: prepare,
// sign locally with viem, submit, retry, and find the trades settled.

describe('signing on the client over HTTP (serverless offline)', () => {
  it('prepares, signs and submits a LINK to USDC swap on ethereum; the retry sends nothing', async () => {
    const dex = deployment('ethereum')
    const wallet = await fundedAccount('ethereum', { tokens: { LINK: parseEther('30') } })
    const token = await signInOverHttp(wallet.account)
    const body = {
      amount: '30',
      address0: dex.token('LINK'),
      decimals0: 18,
      address1: dex.usdStablecoin,
      decimals1: 6,
    }
    const client = devnet('ethereum')
    const nonce = await client.getTransactionCount({ address: wallet.address, blockTag: 'pending' })

    const prepared = await apiCall('POST', '/prepare/swap/tokens/ethereum', { token, body })
    const { transactions, quote } = prepared.body.result as {
      transactions: PreparedTransaction[]
      quote: { amountOutMin: Hex; path: Address[] }
    }
    const signed = await signAll(wallet.account, transactions)
    const headers = { 'idempotency-key': `e2e-submit-${wallet.address}` }
    const submitted = await apiCall('POST', '/submit/ethereum', {
      token,
      body: { transactions: signed },
      headers,
    })
    const retried = await apiCall('POST', '/submit/ethereum', {
      token,
      body: { transactions: signed },
      headers,
    })

    expect(prepared.status).toBe(200)
    expect(transactions.map((transaction) => [transaction.kind, transaction.nonce])).toEqual([
      ['approval', nonce],
      ['swap', nonce + 1],
    ])
    expect(submitted.status).toBe(200)
    expect(retried).toEqual(submitted)
    const { txId, txIds } = submitted.body.result as { txId: Hex; txIds: Hex[] }
    expect(txIds).toHaveLength(2)
    const receipt = await client.waitForTransactionReceipt({ hash: txId })
    expect(receipt.status).toBe('success')
    expect(await client.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(
      nonce + 2,
    )
    expect(await balanceOf('ethereum', wallet.address, body.address0)).toBe(0n)
    expect(await balanceOf('ethereum', wallet.address, body.address1)).toBeGreaterThanOrEqual(
      BigInt(quote.amountOutMin),
    )
    // A lookup settles a mined trade from its receipt, as for the {key} routes' trades.
    const lookup = await apiCall('GET', `/trade/hash/${txId}`, { token })
    expect(lookup.body.result).toMatchObject({ type: 'swap', status: 'successful' })
    const listed = await apiCall('GET', '/trades?direction=ASC', { token })
    expect(listed.body.result).toMatchObject({
      count: 2,
      trades: [
        expect.objectContaining({ type: 'approval' }),
        expect.objectContaining({ type: 'swap' }),
      ],
    })
  })

  it('sends the native coin on altchain and refuses the same bytes for another wallet', async () => {
    const [wallet, other] = await Promise.all([
      fundedAccount('altchain', { native: parseEther('5') }),
      fundedAccount('altchain', { native: parseEther('5') }),
    ])
    const [token, otherToken] = await Promise.all([
      signInOverHttp(wallet.account),
      signInOverHttp(other.account),
    ])
    const to = randomAddress()

    const prepared = await apiCall('POST', '/prepare/transfer/tokens/altchain', {
      token,
      body: { to, amount: '1.25' },
    })
    const { transactions } = prepared.body.result as { transactions: PreparedTransaction[] }
    const signed = await signAll(wallet.account, transactions)
    const stolen = await apiCall('POST', '/submit/altchain', {
      token: otherToken,
      body: { transactions: signed },
    })
    const submitted = await apiCall('POST', '/submit/altchain', {
      token,
      body: { transactions: signed },
    })

    expect(stolen.status).toBe(422)
    expect(submitted.status).toBe(200)
    const { txId } = submitted.body.result as { txId: Hex }
    await devnet('altchain').waitForTransactionReceipt({ hash: txId })
    expect(await balanceOf('altchain', to, '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE')).toBe(
      parseEther('1.25'),
    )
  })
})
