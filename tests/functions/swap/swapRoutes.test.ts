import '../../support/env'
import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { describe, expect, it } from 'vitest'
import type { NetworkName } from '../../../lib/networkNames'
import { db } from '../../../lib/db/client'
import { listTrades } from '../../../lib/db/trade'
import { NATIVE_COIN } from '../../../lib/constants'
import {
  deployment,
  devnet,
  devnetWallet,
  type FundedAccount,
  fundedAccount,
} from '../../support/devnetAccounts'
import { signInWithWallet } from '../../support/walletSignIn'
import { spyOnDbSend } from '../../support/dbSendSpy'
import { endSessionOf } from '../../support/liveSession'
import { httpEvent, invoke } from '../../support/httpEvent'
import { expectSwapMatchesQuote, quoteFor, type SwapRequest } from '../../support/swapChecks'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const swapNativeAltchain = networkRoute('swapNative', 'altchain')
const swapTokensAltchain = networkRoute('swapTokens', 'altchain')
const swapTokensEthereum = networkRoute('swapTokens', 'ethereum')

const ROUTES = {
  'tokens/ethereum': { handler: swapTokensEthereum, network: 'ethereum' },
  'tokens/altchain': { handler: swapTokensAltchain, network: 'altchain' },
  'native/altchain': { handler: swapNativeAltchain, network: 'altchain' },
} as const
type Route = keyof typeof ROUTES

interface Caller {
  account: FundedAccount
  token: string
}

async function caller(network: NetworkName, tokens: Record<string, bigint> = {}): Promise<Caller> {
  const account = await fundedAccount(network, { tokens })
  return { account, token: (await signInWithWallet(account.privateKey)).access }
}

function swap(
  route: Route,
  {
    key,
    token,
    body,
    headers,
  }: { key: string; token?: string; body: unknown; headers?: Record<string, string> },
) {
  return invoke(
    ROUTES[route].handler,
    httpEvent({
      routeKey: `POST /api/v1/swap/${route}/{key}`,
      pathParameters: { key },
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
      body,
    }),
  )
}

const nonceOf = (network: NetworkName, address: Address) =>
  devnet(network).getTransactionCount({ address, blockTag: 'pending' })

function request(network: NetworkName, from: string, to: string, amount: string): SwapRequest {
  const dex = deployment(network)
  const side = (symbol: string) => {
    if (symbol === 'NATIVE') return { address: NATIVE_COIN, decimals: 18 }
    if (symbol === 'USDC') return { address: dex.usdStablecoin, decimals: 6 }
    const token = dex.tokens.find((candidate) => candidate.symbol === symbol)
    if (!token) throw new Error(symbol)
    return { address: token.address, decimals: token.decimals }
  }
  const [zero, one] = [side(from), side(to)]
  return {
    amount,
    address0: zero.address,
    decimals0: zero.decimals,
    address1: one.address,
    decimals1: one.decimals,
  }
}

describe('POST /v1/swap/{tokens|native}/{network}/{key}', () => {
  it('swaps LINK for USDC on ethereum, approving the router first, for the quoted amounts', async () => {
    const body = request('ethereum', 'LINK', 'USDC', '40.5')
    const { account, token } = await caller('ethereum', { LINK: parseEther('100') })
    const nonce = await nonceOf('ethereum', account.address)
    const quote = await quoteFor('ethereum', body)

    const response = await swap('tokens/ethereum', { key: account.privateKey, token, body })

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          txId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          // Simulated before the approval was sent: the allowance it found short, the swap's success.
          preview: expect.objectContaining({
            method: 'eth_simulateV1',
            transactions: [
              expect.objectContaining({ kind: 'approval', status: 'success' }),
              expect.objectContaining({ kind: 'swap', status: 'success' }),
            ],
            issues: [expect.objectContaining({ type: 'insufficientAllowance' })],
          }),
        },
      },
    })
    const { txId } = response.body.result as { txId: Hex }
    await expectSwapMatchesQuote('ethereum', {
      owner: account.address,
      hash: txId,
      request: body,
      quote,
    })
    const client = devnet('ethereum')
    const dex = deployment('ethereum')
    expect(await nonceOf('ethereum', account.address)).toBe(nonce + 2)
    const allowance = await client.readContract({
      address: body.address0,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [account.address, dex.swapRouter],
    })
    // The approval was for exactly the amount, and the swap used all of it.
    expect(allowance).toBe(0n)
    const { trades, count } = await listTrades({
      wallet: account.address,
      limit: 10,
      offset: 0,
      direction: 'ASC',
    })
    expect(count).toBe(2)
    expect(trades).toEqual([
      expect.objectContaining({
        type: 'approval',
        status: 'pending',
        network: 'ethereum',
        from: account.address,
        to: dex.swapRouter,
        token: body.address0,
        amount: '40.5',
        isNativeTransfer: false,
      }),
      expect.objectContaining({
        hash: txId,
        type: 'swap',
        status: 'pending',
        from: account.address,
        to: dex.swapRouter,
        token: body.address0,
        amount: '40.5',
        isNativeTransfer: false,
      }),
    ])
    const approvalTx = await client.getTransaction({ hash: trades[0]?.hash as Hex })
    expect(decodeFunctionData({ abi: erc20Abi, data: approvalTx.input })).toEqual({
      functionName: 'approve',
      args: [dex.swapRouter, parseEther('40.5')],
    })
  })

  it('swaps CAKE for BTCB on altchain through a base token (they share no pool)', async () => {
    const body = request('altchain', 'CAKE', 'BTCB', '1234.5678')
    const { account, token } = await caller('altchain', { CAKE: parseEther('2000') })
    const quote = await quoteFor('altchain', body)

    const response = await swap('tokens/altchain', { key: account.privateKey, token, body })

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: Hex }
    expect(quote.path.length).toBeGreaterThan(2)
    await expectSwapMatchesQuote('altchain', {
      owner: account.address,
      hash: txId,
      request: body,
      quote,
    })
  })

  it('swaps the native coin for CAKE on altchain, wrapping inside the router call', async () => {
    const body = request('altchain', 'NATIVE', 'CAKE', '2.25')
    const { account, token } = await caller('altchain')
    const quote = await quoteFor('altchain', body)

    const response = await swap('native/altchain', {
      key: account.privateKey.slice(2),
      token,
      body,
    })

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: Hex }
    await expectSwapMatchesQuote('altchain', {
      owner: account.address,
      hash: txId,
      request: body,
      quote,
    })
    const [trade] = (
      await listTrades({ wallet: account.address, limit: 5, offset: 0, direction: 'ASC' })
    ).trades
    expect(trade).toMatchObject({
      type: 'swap',
      token: NATIVE_COIN,
      isNativeTransfer: true,
      amount: '2.25',
    })
  })

  it('swaps DOGE, pooled with the stablecoin only, for the native coin through it', async () => {
    // Before multi-hop routing (DECISIONS §7.2) this was a 422: no DOGE/WALT pool exists.
    const body = request('altchain', 'DOGE', 'NATIVE', '10')
    const { account, token } = await caller('altchain', { DOGE: parseUnits('10', 8) })
    const quote = await quoteFor('altchain', body)

    const response = await swap('native/altchain', { key: account.privateKey, token, body })

    expect(response.status).toBe(200)
    expect(quote.path).toEqual([
      body.address0,
      deployment('altchain').usdStablecoin,
      deployment('altchain').wrappedNative,
    ])
    const { txId } = response.body.result as { txId: Hex }
    await expectSwapMatchesQuote('altchain', {
      owner: account.address,
      hash: txId,
      request: body,
      quote,
    })
  })

  it('swaps CAKE for the native coin on altchain, unwrapping inside the router call', async () => {
    const body = request('altchain', 'CAKE', 'NATIVE', '300')
    const { account, token } = await caller('altchain', { CAKE: parseEther('300') })
    const quote = await quoteFor('altchain', body)

    const response = await swap('native/altchain', { key: account.privateKey, token, body })

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: Hex }
    await expectSwapMatchesQuote('altchain', {
      owner: account.address,
      hash: txId,
      request: body,
      quote,
    })
  })

  it('swaps ether for WBTC and WBTC for ether through the ethereum token route', async () => {
    const { account, token } = await caller('ethereum')
    const buy = request('ethereum', 'NATIVE', 'WBTC', '3')
    const buyQuote = await quoteFor('ethereum', buy)

    const bought = await swap('tokens/ethereum', { key: account.privateKey, token, body: buy })

    expect(bought.status).toBe(200)
    const { received } = await expectSwapMatchesQuote('ethereum', {
      owner: account.address,
      hash: (bought.body.result as { txId: Hex }).txId,
      request: buy,
      quote: buyQuote,
    })
    const sell = request('ethereum', 'WBTC', 'NATIVE', (Number(received) / 1e8 / 2).toFixed(8))
    const sellQuote = await quoteFor('ethereum', sell)

    const sold = await swap('tokens/ethereum', { key: account.privateKey, token, body: sell })

    expect(sold.status).toBe(200)
    await expectSwapMatchesQuote('ethereum', {
      owner: account.address,
      hash: (sold.body.result as { txId: Hex }).txId,
      request: sell,
      quote: sellQuote,
    })
  })

  it('sends no approval when the allowance already covers the amount', async () => {
    const body = request('ethereum', 'USDC', 'UNI', '99.5')
    const { account, token } = await caller('ethereum', { USDC: parseUnits('100', 6) })
    const client = devnet('ethereum')
    const wallet = devnetWallet('ethereum', privateKeyToAccount(account.privateKey))
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: body.address0,
        abi: erc20Abi,
        functionName: 'approve',
        args: [deployment('ethereum').swapRouter, maxUint256],
      }),
    })
    const nonce = await nonceOf('ethereum', account.address)
    const quote = await quoteFor('ethereum', body)

    const response = await swap('tokens/ethereum', { key: account.privateKey, token, body })

    expect(response.status).toBe(200)
    expect(await nonceOf('ethereum', account.address)).toBe(nonce + 1)
    await expectSwapMatchesQuote('ethereum', {
      owner: account.address,
      hash: (response.body.result as { txId: Hex }).txId,
      request: body,
      quote,
    })
  })

  describe('refused before broadcast: 422, nothing sent, nothing recorded', () => {
    it('when the token balance is short', async () => {
      const { account, token } = await caller('ethereum', { LINK: parseEther('1') })
      const nonce = await nonceOf('ethereum', account.address)

      const response = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: request('ethereum', 'LINK', 'USDC', '1.000000000000000001'),
      })

      expect(response).toEqual({
        status: 422,
        body: {
          ok: false,
          error: { code: 422, message: expect.stringMatching(/insufficient balance/) },
        },
      })
      expect(await nonceOf('ethereum', account.address)).toBe(nonce)
      expect(
        (await listTrades({ wallet: account.address, limit: 10, offset: 0, direction: 'ASC' }))
          .count,
      ).toBe(0)
    })

    it('when the native balance cannot pay for the amount and gas', async () => {
      const { account, token } = await caller('altchain')
      await devnet('altchain').setBalance({ address: account.address, value: parseEther('1') })

      const response = await swap('native/altchain', {
        key: account.privateKey,
        token,
        body: request('altchain', 'NATIVE', 'CAKE', '1'),
      })

      expect(response.status).toBe(422)
      expect(response.body.error?.message).toMatch(/native balance|insufficient/)
      expect(await nonceOf('altchain', account.address)).toBe(0)
      expect(
        (await listTrades({ wallet: account.address, limit: 10, offset: 0, direction: 'ASC' }))
          .count,
      ).toBe(0)
    })

    it('when the wallet has tokens but no coin for the approval gas', async () => {
      const { account, token } = await caller('ethereum', { LINK: parseEther('5') })
      await devnet('ethereum').setBalance({ address: account.address, value: 0n })
      const nonce = await nonceOf('ethereum', account.address)

      const response = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: request('ethereum', 'LINK', 'USDC', '5'),
      })

      expect(response.status).toBe(422)
      expect(response.body.error?.message).toMatch(/native balance does not cover the approval/)
      expect(await nonceOf('ethereum', account.address)).toBe(nonce)
      expect(
        (await listTrades({ wallet: account.address, limit: 10, offset: 0, direction: 'ASC' }))
          .count,
      ).toBe(0)
    })
  })

  describe('input', () => {
    it('answers 400 when the stated decimals are not those of the token', async () => {
      const { account, token } = await caller('ethereum', { USDC: parseUnits('10', 6) })

      const response = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: { ...request('ethereum', 'USDC', 'LINK', '1'), decimals0: 18 },
      })

      expect(response.status).toBe(400)
      expect(response.body.error?.details).toEqual([
        { path: 'body.decimals0', message: 'the token has 6 decimals, not 18' },
      ])
    })

    it('keeps the native coin off the altchain token route and requires it on the native route', async () => {
      const { account, token } = await caller('altchain')

      const native = await swap('tokens/altchain', {
        key: account.privateKey,
        token,
        body: request('altchain', 'NATIVE', 'CAKE', '1'),
      })
      const tokens = await swap('native/altchain', {
        key: account.privateKey,
        token,
        body: request('altchain', 'CAKE', 'BTCB', '1'),
      })

      expect(native.status).toBe(400)
      expect(native.body.error?.details).toEqual([
        { path: 'body.address0', message: expect.stringMatching(/native/) },
      ])
      expect(tokens.status).toBe(400)
    })

    it.each([
      ['a float amount', { amount: 1.5 }],
      ['an exponent', { amount: '1e3' }],
      ['decimals 37', { decimals1: 37 }],
      ['slippage of 5001 bps', { slippageBps: 5001 }],
      ['a deadline of 10 s', { deadlineSeconds: 10 }],
      ['an unknown field', { privateKey: 'x' }],
    ])('answers 400 for %s', async (_, override) => {
      const { account, token } = await caller('ethereum')

      const response = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: { ...request('ethereum', 'NATIVE', 'LINK', '1'), ...override },
      })

      expect(response.status).toBe(400)
    })
    it('answers 400 naming a field it does not know (tradeType) and sends nothing', async () => {
      const { account, token } = await caller('ethereum')
      const nonce = await nonceOf('ethereum', account.address)

      const response = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: { ...request('ethereum', 'NATIVE', 'LINK', '1'), tradeType: 'EXACT_OUTPUT' },
      })

      expect(response.status).toBe(400)
      expect(response.body.error?.details).toEqual([
        {
          path: 'body',
          message:
            'unknown field "tradeType"; the body takes only amount, address0, decimals0, address1, ' +
            'decimals1, slippageBps, deadlineSeconds, type',
        },
      ])
      expect(await nonceOf('ethereum', account.address)).toBe(nonce)
    })
  })

  describe('the key and the token', () => {
    it('answers 401001 without a token and 401002 with a bad one, before reading the key', async () => {
      const body = request('ethereum', 'NATIVE', 'LINK', '1')
      const key = generatePrivateKey()

      const missing = await swap('tokens/ethereum', { key, body })
      const invalid = await swap('tokens/ethereum', { key, token: 'a.b.c', body })

      expect(missing.body.error?.code).toBe(401001)
      expect(invalid.body.error?.code).toBe(401002)
    })

    it('answers 401004 for the key of another wallet and sends nothing', async () => {
      const { token } = await caller('ethereum')
      const other = await fundedAccount('ethereum', {})

      const response = await swap('tokens/ethereum', {
        key: other.privateKey,
        token,
        body: request('ethereum', 'NATIVE', 'LINK', '1'),
      })

      expect(response).toEqual({
        status: 401,
        body: {
          ok: false,
          error: { code: 401004, message: 'the key does not control the signed-in wallet' },
        },
      })
      expect(await nonceOf('ethereum', other.address)).toBe(0)
    })

    it('answers 400 for a malformed key without quoting it', async () => {
      const { account, token } = await caller('ethereum')
      const key = `${account.privateKey}ab`

      const response = await swap('tokens/ethereum', {
        key,
        token,
        body: request('ethereum', 'NATIVE', 'LINK', '1'),
      })

      expect(response.status).toBe(400)
      expect(JSON.stringify(response.body)).not.toContain(account.privateKey.slice(2))
    })
  })

  describe('Idempotency-Key', () => {
    it('sends once for the same key: the retry gets the first txId', async () => {
      const { account, token } = await caller('ethereum')
      const body = request('ethereum', 'NATIVE', 'LINK', '0.5')
      const headers = { 'idempotency-key': `swap-${generatePrivateKey().slice(2, 18)}` }
      const nonce = await nonceOf('ethereum', account.address)

      const first = await swap('tokens/ethereum', { key: account.privateKey, token, body, headers })
      const retry = await swap('tokens/ethereum', { key: account.privateKey, token, body, headers })

      expect(first.status).toBe(200)
      expect(retry).toEqual(withoutPreview(first))
      expect(await nonceOf('ethereum', account.address)).toBe(nonce + 1)
      expect(
        (await listTrades({ wallet: account.address, limit: 10, offset: 0, direction: 'ASC' }))
          .count,
      ).toBe(1)
    })

    it('sends once when the same key arrives twice at the same time', async () => {
      const { account, token } = await caller('altchain')
      const body = request('altchain', 'NATIVE', 'CAKE', '0.25')
      const headers = { 'idempotency-key': 'concurrent-retry' }

      const responses = await Promise.all([
        swap('native/altchain', { key: account.privateKey, token, body, headers }),
        swap('native/altchain', { key: account.privateKey, token, body, headers }),
      ])

      const ok = responses.filter((response) => response.status === 200)
      expect(ok.length).toBeGreaterThanOrEqual(1)
      expect(responses.every((response) => [200, 409].includes(response.status))).toBe(true)
      expect(new Set(ok.map((response) => JSON.stringify(response.body))).size).toBe(1)
      expect(await nonceOf('altchain', account.address)).toBe(1)
    })

    it('answers 422 when the key is reused for a different request, and sends each request without one', async () => {
      const { account, token } = await caller('ethereum')
      const headers = { 'idempotency-key': 'reused' }

      const first = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: request('ethereum', 'NATIVE', 'LINK', '0.5'),
        headers,
      })
      const other = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body: request('ethereum', 'NATIVE', 'LINK', '0.6'),
        headers,
      })
      const plain = await Promise.all(
        [0, 1].map(async () => {
          const response = await swap('tokens/ethereum', {
            key: account.privateKey,
            token,
            body: request('ethereum', 'NATIVE', 'LINK', '0.5'),
          })
          return response
        }),
      )

      expect(first.status).toBe(200)
      expect(other.status).toBe(422)
      expect(other.body.error?.message).toMatch(/different request/)
      expect(plain.map((response) => response.status)).toEqual([200, 200])
      expect(await nonceOf('ethereum', account.address)).toBe(3)
    })

    it('sends nothing to an ended session, checked beside the claim, and frees its key', async () => {
      const { account, token } = await caller('ethereum')
      const body = request('ethereum', 'NATIVE', 'LINK', '0.5')
      const headers = { 'idempotency-key': `ended-${generatePrivateKey().slice(2, 18)}` }
      await endSessionOf(token)

      const refused = await swap('tokens/ethereum', {
        key: account.privateKey,
        token,
        body,
        headers,
      })
      const again = (await signInWithWallet(account.privateKey)).access
      const retried = await swap('tokens/ethereum', {
        key: account.privateKey,
        token: again,
        body,
        headers,
      })

      expect(refused).toEqual({
        status: 401,
        body: { ok: false, error: { code: 401003, message: expect.any(String) } },
      })
      // The key's claim, a write, waited for the session and was never made: the retry runs, once.
      expect(retried.status).toBe(200)
      expect(await nonceOf('ethereum', account.address)).toBe(1)
    })

    it('answers the hash when the trade cannot be recorded, and a retry gets it without sending', async () => {
      const { account, token } = await caller('altchain')
      const body = request('altchain', 'NATIVE', 'CAKE', '0.25')
      const headers = { 'idempotency-key': `unrecorded-${generatePrivateKey().slice(2, 18)}` }
      const client = db()
      const passThrough = client.send.bind(client)
      const send = spyOnDbSend()
      // The transaction recording the trade and completing the key fails once the swap is out.
      send.mockImplementation((async (command: unknown) => {
        if (command instanceof TransactWriteCommand) {
          throw Object.assign(new Error('refused'), { name: 'ValidationException' })
        }
        return passThrough(command as never)
      }) as never)

      const first = await swap('native/altchain', { key: account.privateKey, token, body, headers })
      send.mockRestore()
      const retry = await swap('native/altchain', { key: account.privateKey, token, body, headers })

      expect(first.status).toBe(200)
      expect(retry).toEqual(withoutPreview(first))
      expect(await nonceOf('altchain', account.address)).toBe(1)
      expect(
        (await listTrades({ wallet: account.address, limit: 10, offset: 0, direction: 'ASC' }))
          .count,
      ).toBe(0)
    })

    it('scopes keys to the wallet and frees a key whose request failed before sending', async () => {
      const alice = await caller('altchain')
      const bob = await caller('altchain', { CAKE: parseEther('1') })
      const headers = { 'idempotency-key': 'shared-key' }
      const body = request('altchain', 'CAKE', 'NATIVE', '2')

      const short = await swap('native/altchain', {
        key: bob.account.privateKey,
        token: bob.token,
        body,
        headers,
      })
      const alices = await swap('native/altchain', {
        key: alice.account.privateKey,
        token: alice.token,
        body: request('altchain', 'NATIVE', 'CAKE', '1'),
        headers,
      })
      const halved = await swap('native/altchain', {
        key: bob.account.privateKey,
        token: bob.token,
        body: request('altchain', 'CAKE', 'NATIVE', '1'),
        headers,
      })

      expect(short.status).toBe(422)
      expect(alices.status).toBe(200)
      expect(halved.status).toBe(200)
    })
  })
})

/** A first answer as its retry gets it: the first hash, and no preview (a retry simulates nothing). */
function withoutPreview<Response extends { body: { result?: unknown } }>(first: Response) {
  const { preview, ...sent } = first.body.result as { txId: string; preview?: unknown }
  expect(preview).toBeDefined()
  return { ...first, body: { ...first.body, result: sent } }
}
