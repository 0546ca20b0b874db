import '../../support/env'
import { type Address, decodeFunctionData, erc20Abi, type Hex, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { type NetworkName } from '../../../lib/networkNames'
import { functionName } from '../../../lib/networks/operations'
import { listTrades } from '../../../lib/db/trade'
import { NATIVE_COIN } from '../../../lib/constants'
import { balanceOf, deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { signInWithWallet } from '../../support/walletSignIn'
import { httpEvent, invoke } from '../../support/httpEvent'
import { byCatalog, TESTED_NETWORKS } from '../../support/networkCases'
import { networkHandler } from '../../support/networkRoutes'

async function transfer(
  network: NetworkName,
  {
    key,
    token,
    body,
    headers,
  }: { key: string; token?: string; body: unknown; headers?: Record<string, string> },
) {
  return invoke(
    await networkHandler('transfer', network),
    httpEvent({
      route: functionName('transfer', network),
      pathParameters: { key },
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
      body,
    }),
  )
}

async function caller(network: NetworkName, tokens: Record<string, bigint> = {}) {
  const account = await fundedAccount(network, { native: parseEther('10'), tokens })
  return { account, token: (await signInWithWallet(account.privateKey)).access }
}

const stranger = () => privateKeyToAccount(generatePrivateKey()).address

async function mined(network: NetworkName, hash: Hex) {
  const client = devnet(network)
  // The route answers once the node accepted the transaction, not once it is mined.
  const receipt = await client.waitForTransactionReceipt({ hash })
  const transaction = await client.getTransaction({ hash })
  expect(receipt.status).toBe('success')
  return { receipt, transaction }
}

// A token of 8 decimals in each demo catalog, and what a caller buys and sends of it.
const EIGHT_DECIMALS = {
  ethereum: { symbol: 'WBTC', bought: '2', sent: '1.99999999' },
  altchain: { symbol: 'DOGE', bought: '1000', sent: '999.99999999' },
}

describe.each(TESTED_NETWORKS)('POST /v1/transfer/tokens/%s/{key}', (network) => {
  it('sends the native coin as a plain value transfer when no token is named', async () => {
    const { account, token } = await caller(network)
    const to = stranger()

    const response = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to, amount: '1.25' },
    })

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: Hex }
    const { receipt, transaction } = await mined(network, txId)
    expect(transaction).toMatchObject({
      to: to.toLowerCase(),
      value: parseEther('1.25'),
      input: '0x',
    })
    expect(await balanceOf(network, to, NATIVE_COIN)).toBe(parseEther('1.25'))
    expect(await balanceOf(network, account.address, NATIVE_COIN)).toBe(
      parseEther('8.75') - receipt.gasUsed * receipt.effectiveGasPrice,
    )
    const { trades } = await listTrades({
      wallet: account.address,
      limit: 5,
      offset: 0,
      direction: 'ASC',
    })
    expect(trades).toEqual([
      expect.objectContaining({
        hash: txId,
        type: 'transfer',
        status: 'pending',
        network,
        from: account.address,
        to,
        amount: '1.25',
        token: NATIVE_COIN,
        isNativeTransfer: true,
      }),
    ])
  })

  it('sends the native coin when the sentinel is named, with its 18 decimals', async () => {
    const { account, token } = await caller(network)
    const to = stranger()

    const response = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to, amount: '0.000000000000000001', token: NATIVE_COIN.toLowerCase(), decimals: 18 },
    })

    expect(response.status).toBe(200)
    await mined(network, (response.body.result as { txId: Hex }).txId)
    expect(await balanceOf(network, to, NATIVE_COIN)).toBe(1n)
  })

  it("calls the token's transfer, reading the decimals from the contract when not given", async () => {
    const usdc = deployment(network).usdStablecoin
    const { account, token } = await caller(network, { USDC: parseUnits('50', 6) })
    const to = stranger()

    const response = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to, amount: '12.345678', token: usdc },
    })

    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: Hex }
    const { transaction } = await mined(network, txId)
    expect(transaction.to?.toLowerCase()).toBe(usdc.toLowerCase())
    expect(decodeFunctionData({ abi: erc20Abi, data: transaction.input })).toEqual({
      functionName: 'transfer',
      args: [to, 12_345_678n],
    })
    expect(await balanceOf(network, to, usdc)).toBe(12_345_678n)
    expect(await balanceOf(network, account.address, usdc)).toBe(parseUnits('37.654322', 6))
    const [trade] = (
      await listTrades({ wallet: account.address, limit: 5, offset: 0, direction: 'ASC' })
    ).trades
    expect(trade).toMatchObject({ type: 'transfer', token: usdc, amount: '12.345678' })
  })

  it('transfers a token with 8 decimals when the decimals are given', async () => {
    const { symbol, bought, sent } = byCatalog(network, EIGHT_DECIMALS)
    const eightDecimals = deployment(network).token(symbol)
    const { account, token } = await caller(network, { [symbol]: parseUnits(bought, 8) })
    const to = stranger()

    const response = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to, amount: sent, token: eightDecimals, decimals: 8 },
    })

    expect(response.status).toBe(200)
    await mined(network, (response.body.result as { txId: Hex }).txId)
    expect(await balanceOf(network, to, eightDecimals)).toBe(parseUnits(sent, 8))
  })

  it('answers 422, sends and records nothing, when the balance is short', async () => {
    const usdc = deployment(network).usdStablecoin
    const { account, token } = await caller(network, { USDC: parseUnits('1', 6) })
    const nonce = await devnet(network).getTransactionCount({
      address: account.address,
      blockTag: 'pending',
    })

    const tokenShort = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to: stranger(), amount: '1.000001', token: usdc },
    })
    const coinShort = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to: stranger(), amount: '10' },
    })

    expect(tokenShort.status).toBe(422)
    expect(tokenShort.body.error?.message).toMatch(/insufficient balance/)
    expect(coinShort.status).toBe(422)
    expect(coinShort.body.error?.message).toMatch(/native balance does not cover the transfer/)
    expect(
      await devnet(network).getTransactionCount({
        address: account.address,
        blockTag: 'pending',
      }),
    ).toBe(nonce)
    const { count } = await listTrades({
      wallet: account.address,
      limit: 5,
      offset: 0,
      direction: 'ASC',
    })
    expect(count).toBe(0)
  })

  it.each([
    ['decimals that are not the token’s', { decimals: 18 }, 'body.decimals'],
    ['more fraction digits than the token has', { amount: '1.0000001' }, 'body.amount'],
  ])('answers 400 for %s', async (_, override, path) => {
    const usdc = deployment(network).usdStablecoin
    const { account, token } = await caller(network, { USDC: parseUnits('5', 6) })

    const response = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to: stranger(), amount: '1', token: usdc, ...override },
    })

    expect(response.status).toBe(400)
    expect(response.body.error?.details).toEqual([{ path, message: expect.any(String) }])
  })

  it.each([
    ['the zero address', { to: `0x${'0'.repeat(40)}` }, 'body.to'],
    ['a bad recipient', { to: '0x12' }, 'body.to'],
    ['a native amount with 19 fraction digits', { amount: '0.0000000000000000001' }, 'body.amount'],
    ['native with 6 decimals', { decimals: 6 }, 'body.decimals'],
    ['a number amount', { amount: 1 }, 'body.amount'],
    ['a zero amount', { amount: '0' }, 'body.amount'],
  ])('answers 400 for %s', async (_, override, path) => {
    const { account, token } = await caller(network)

    const response = await transfer(network, {
      key: account.privateKey,
      token,
      body: { to: stranger(), amount: '1', ...override },
    })

    expect(response.status).toBe(400)
    expect(response.body.error?.details).toEqual([{ path, message: expect.any(String) }])
  })

  it('answers 401004 for the key of another wallet, 401001 without a token', async () => {
    const { token } = await caller(network)
    const other = generatePrivateKey()

    const foreign = await transfer(network, {
      key: other,
      token,
      body: { to: stranger(), amount: '1' },
    })
    const anonymous = await transfer(network, {
      key: other,
      body: { to: stranger(), amount: '1' },
    })

    expect(foreign.body.error?.code).toBe(401004)
    expect(anonymous.body.error?.code).toBe(401001)
  })

  it('sends once for a repeated Idempotency-Key', async () => {
    const { account, token } = await caller(network)
    const to: Address = stranger()
    const headers = { 'idempotency-key': 'rent-2026-11' }
    const body = { to, amount: '0.1' }

    const first = await transfer(network, { key: account.privateKey, token, body, headers })
    const retry = await transfer(network, { key: account.privateKey, token, body, headers })

    expect(first.status).toBe(200)
    // The retry answers the first hash; it sends nothing, so it simulates nothing: no preview.
    const { preview, ...sent } = first.body.result as { txId: string; preview?: unknown }
    expect(preview).toBeDefined()
    expect(retry).toEqual({ ...first, body: { ...first.body, result: sent } })
    await mined(network, (first.body.result as { txId: Hex }).txId)
    expect(await balanceOf(network, to, NATIVE_COIN)).toBe(parseEther('0.1'))
  })
})
