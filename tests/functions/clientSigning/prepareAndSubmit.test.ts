import '../../support/env'
import { type Address, erc20Abi, type Hex, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { handler as reconcileTrades } from '../../../functions/schedules/reconcileTrades'
import { handler as getTradeByHash } from '../../../functions/trade/getTradeByHash'
import type { NetworkName } from '../../../lib/networkNames'
import { NATIVE_COIN } from '../../../lib/constants'
import { db } from '../../../lib/db/client'
import { permitSupportOf } from '../../../lib/swap/permitSupport'
import { listTrades } from '../../../lib/db/trade'
import { randomAddress } from '../../support/marketFixtures'
import { balanceOf, deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { type PrepareOperation, prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { httpEvent, invoke } from '../../support/httpEvent'
import { countRequests, type RequestTally } from '../../support/requestCounters'
import { type PreparedTransaction, signAll } from '../../support/signPrepared'
import {
  expectSwapMatchesQuote,
  quoteCallsOf,
  quoteFor,
  type QuoteSnapshot,
  type SwapRequest,
} from '../../support/swapChecks'
import { signInWithWallet } from '../../support/walletSignIn'

// Signing on the client (DECISIONS §7.3), through the real handlers and both devnets: prepare,
// sign with a viem local account here, submit; then the chain, the trades and the reconciler.

interface Prepared {
  transactions: PreparedTransaction[]
  quote?: { quote: number; amountOutMin: Hex; path: Address[]; route: QuoteSnapshot['route'] }
}

async function caller(network: NetworkName, tokens: Record<string, bigint> = {}) {
  const funded = await fundedAccount(network, { tokens })
  return { ...funded, token: (await signInWithWallet(funded.privateKey)).access }
}

async function prepared(
  operation: PrepareOperation,
  token: string,
  body: unknown,
): Promise<Prepared> {
  const response = await prepareRoute(operation, token, body)
  expect(response.body.error).toBeUndefined()
  expect(response.status).toBe(200)
  return response.body.result as Prepared
}

function side(network: NetworkName, symbol: string) {
  const dex = deployment(network)
  if (symbol === 'NATIVE') return { address: NATIVE_COIN, decimals: 18 }
  if (symbol === 'USDC') return { address: dex.usdStablecoin, decimals: 6 }
  const token = [...dex.tokens, ...dex.zoo].find((candidate) => candidate.symbol === symbol)
  if (!token) throw new Error(symbol)
  return { address: token.address, decimals: token.decimals }
}

function swapRequest(network: NetworkName, from: string, to: string, amount: string): SwapRequest {
  const [zero, one] = [side(network, from), side(network, to)]
  return {
    amount,
    address0: zero.address,
    decimals0: zero.decimals,
    address1: one.address,
    decimals1: one.decimals,
  }
}

const tradesOf = async (wallet: Address) =>
  (await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })).trades

const nonceOf = (network: NetworkName, address: Address) =>
  devnet(network).getTransactionCount({ address, blockTag: 'pending' })

/** Runs `call` alone and returns what it cost. */
async function measured<Result>(call: () => Promise<Result>): Promise<[Result, RequestTally]> {
  const counter = countRequests(db())
  try {
    const result = await call()
    return [result, counter.take()]
  } finally {
    counter.stop()
  }
}

describe('prepare, sign on the client, submit', () => {
  it('swaps LINK for USDC on ethereum: approval then swap, recorded, settled, as quoted', async () => {
    const body = swapRequest('ethereum', 'LINK', 'USDC', '40')
    const wallet = await caller('ethereum', { LINK: parseEther('100') })
    const dex = deployment('ethereum')
    const nonce = await nonceOf('ethereum', wallet.address)
    const quote = await quoteFor('ethereum', body)
    // A token's permit support is probed once and kept (lib/swap/permitSupport.ts): probed here,
    // so the counts below are every later prepare's.
    await permitSupportOf('ethereum', body.address0, dex.swapRouter)

    const [result, prepareCost] = await measured(() =>
      prepared('swap/tokens/ethereum', wallet.token, body),
    )

    expect(result.transactions).toEqual([
      expect.objectContaining({
        kind: 'approval',
        description: 'approve 40 LINK for the router',
        type: 'eip1559',
        chainId: dex.chainId,
        nonce,
        to: body.address0,
        value: '0x0',
      }),
      expect.objectContaining({
        kind: 'swap',
        description: expect.stringMatching(/^swap 40 LINK for at least [\d.]+ USDC$/),
        chainId: dex.chainId,
        nonce: nonce + 1,
        to: dex.swapRouter,
        value: '0x0',
      }),
    ])
    expect(result.quote?.path).toEqual(quote.path)
    // Prepare sends nothing and records nothing.
    expect(await nonceOf('ethereum', wallet.address)).toBe(nonce)
    expect(await tradesOf(wallet.address)).toEqual([])

    const signed = await signAll(wallet.account, result.transactions)
    const [response, submitCost] = await measured(() =>
      submitRoute('ethereum', wallet.token, signed),
    )

    expect(response.status).toBe(200)
    const { txId, txIds } = response.body.result as { txId: Hex; txIds: Hex[] }
    expect(txIds).toHaveLength(2)
    expect(txIds[1]).toBe(txId)
    await expectSwapMatchesQuote('ethereum', {
      owner: wallet.address,
      hash: txId,
      request: body,
      quote,
    })
    expect(await nonceOf('ethereum', wallet.address)).toBe(nonce + 2)
    expect(await tradesOf(wallet.address)).toEqual([
      expect.objectContaining({
        hash: txIds[0],
        type: 'approval',
        status: 'pending',
        from: wallet.address,
        to: dex.swapRouter,
        token: body.address0,
        amount: '40',
        isNativeTransfer: false,
      }),
      expect.objectContaining({
        hash: txId,
        type: 'swap',
        status: 'pending',
        to: dex.swapRouter,
        token: body.address0,
        amount: '40',
        isNativeTransfer: false,
      }),
    ])
    // Prepare, three round trips: the reads (the lens over the pools, gas price, block, nonce,
    // tip, balance, allowance, decimals, native balance, and the recipient's balance of the
    // output, which prices its gas (lib/routing/gas/freshRecipient.ts): LINK's balance slot is known
    // from the quote above); the route's simulation with its estimate from the wallet, which reverts while
    // the allowance is short; then one eth_simulateV1, the preview, which gives both gas limits
    // too. The session and one catalog read. Nothing sent.
    const { lens, simulations } = quoteCallsOf('ethereum', body.address0, body.address1)
    expect(prepareCost.rpc).toEqual({
      calls: lens + simulations * 2 + 12,
      roundTrips: 3,
      byMethod: {
        eth_blockNumber: 1,
        eth_call: lens + simulations + 5,
        eth_estimateGas: simulations,
        eth_gasPrice: 1,
        eth_getBalance: 1,
        eth_getBlockByNumber: 1,
        eth_getTransactionCount: 1,
        eth_maxPriorityFeePerGas: 1,
        eth_simulateV1: 1,
      },
    })
    // Beside them, the client's RPC budget charged its worst case and refunded the rest (two
    // UpdateItems, lib/http/rpcBudget.ts).
    expect(prepareCost.dynamo.byCommand).toEqual({ GetItem: 1, BatchGetItem: 1, UpdateItem: 2 })
    // Submit: the pending nonce (LINK's decimals come from the catalog), the approval, the wait for its receipt, the
    // swap. How often the wait polls depends on when the node mines the approval (viem watches
    // the blocks once a first receipt read finds nothing), so only the rest is counted exactly.
    const { eth_getTransactionReceipt: receiptReads = 0, ...sent } = submitCost.rpc.byMethod
    const waited = ['eth_blockNumber', 'eth_getBlockByNumber', 'eth_getTransactionByHash']
    expect(
      Object.fromEntries(Object.entries(sent).filter(([method]) => !waited.includes(method))),
    ).toEqual({ eth_getTransactionCount: 1, eth_sendRawTransaction: 2 })
    expect(receiptReads).toBeGreaterThanOrEqual(1)
    // The session and the wallet's trade tail (the trades' next position) beside the reads.
    expect(submitCost.dynamo.byCommand).toEqual({
      GetItem: 2,
      BatchGetItem: 1,
      TransactWriteItems: 2,
      UpdateItem: 2,
    })

    await reconcileTrades({} as never)
    expect((await tradesOf(wallet.address)).map((trade) => trade.status)).toEqual([
      'successful',
      'successful',
    ])
    const lookup = await invoke(
      getTradeByHash,
      httpEvent({
        route: 'getTradeByHash',
        pathParameters: { hash: txId },
        headers: { authorization: `Bearer ${wallet.token}` },
      }),
    )
    expect(lookup.body.result).toMatchObject({ type: 'swap', status: 'successful' })
  })

  it('resets a short USDT-style allowance to 0, approves, then swaps on altchain', async () => {
    const body = swapRequest('altchain', 'USDT', 'CAKE', '25')
    const wallet = await caller('altchain', { USDT: parseUnits('50', 6) })
    const dex = deployment('altchain')
    await devnet('altchain').waitForTransactionReceipt({
      hash: await wallet.wallet.writeContract({
        address: body.address0,
        abi: erc20Abi,
        functionName: 'approve',
        args: [dex.swapRouter, parseUnits('1', 6)],
      }),
    })
    const quote = await quoteFor('altchain', body)

    const result = await prepared('swap/tokens/altchain', wallet.token, body)

    expect(result.transactions.map(({ kind, description }) => [kind, description])).toEqual([
      ['approval', "reset the router's USDT allowance to 0"],
      ['approval', 'approve 25 USDT for the router'],
      ['swap', expect.stringMatching(/^swap 25 USDT for at least [\d.]+ CAKE$/)],
    ])
    const response = await submitRoute(
      'altchain',
      wallet.token,
      await signAll(wallet.account, result.transactions),
    )

    expect(response.status).toBe(200)
    const { txId, txIds } = response.body.result as { txId: Hex; txIds: Hex[] }
    expect(txIds).toHaveLength(3)
    await expectSwapMatchesQuote('altchain', {
      owner: wallet.address,
      hash: txId,
      request: body,
      quote,
    })
    expect((await tradesOf(wallet.address)).map(({ type, amount }) => [type, amount])).toEqual([
      ['approval', '0'],
      ['approval', '25'],
      ['swap', '25'],
    ])
  })

  it('swaps the native coin for CAKE on the altchain native route: one transaction with value', async () => {
    const body = swapRequest('altchain', 'NATIVE', 'CAKE', '2.25')
    const wallet = await caller('altchain')
    const quote = await quoteFor('altchain', body)

    const result = await prepared('swap/native/altchain', wallet.token, body)

    expect(result.transactions).toEqual([
      expect.objectContaining({ kind: 'swap', value: `0x${parseEther('2.25').toString(16)}` }),
    ])
    const response = await submitRoute(
      'altchain',
      wallet.token,
      await signAll(wallet.account, result.transactions),
    )
    expect(response.status).toBe(200)
    const { txId } = response.body.result as { txId: Hex }
    await expectSwapMatchesQuote('altchain', {
      owner: wallet.address,
      hash: txId,
      request: body,
      quote,
    })
    expect(await tradesOf(wallet.address)).toEqual([
      expect.objectContaining({
        type: 'swap',
        token: NATIVE_COIN,
        amount: '2.25',
        isNativeTransfer: true,
      }),
    ])
  })

  it('transfers LINK on ethereum and the native coin on altchain', async () => {
    const eth = await caller('ethereum', { LINK: parseEther('10') })
    const alt = await caller('altchain')
    const [toEth, toAlt] = [randomAddress(), randomAddress()]
    const link = side('ethereum', 'LINK').address

    const tokenTransfer = await prepared('transfer/tokens/ethereum', eth.token, {
      to: toEth,
      amount: '2.5',
      token: link,
    })
    const [nativeTransfer, prepareCost] = await measured(() =>
      prepared('transfer/tokens/altchain', alt.token, { to: toAlt, amount: '1.5' }),
    )

    expect(tokenTransfer.transactions).toEqual([
      expect.objectContaining({
        kind: 'transfer',
        description: `transfer 2.5 LINK to ${toEth}`,
        to: link,
      }),
    ])
    expect(nativeTransfer.transactions).toEqual([
      expect.objectContaining({
        kind: 'transfer',
        description: `send 1.5 NATIVE to ${toAlt}`,
        to: toAlt,
        data: '0x',
        value: `0x${parseEther('1.5').toString(16)}`,
      }),
    ])
    const sentEth = await submitRoute(
      'ethereum',
      eth.token,
      await signAll(eth.account, tokenTransfer.transactions),
    )
    const [sentAlt, submitCost] = await measured(async () =>
      submitRoute('altchain', alt.token, await signAll(alt.account, nativeTransfer.transactions)),
    )

    expect([sentEth.status, sentAlt.status]).toEqual([200, 200])
    // A native transfer: one batch (block, nonce, tip, balance, the estimate), then the preview's
    // eth_simulateV1; no catalog read.
    expect(prepareCost.rpc).toMatchObject({ calls: 6, roundTrips: 2 })
    expect(prepareCost.dynamo.byCommand).toEqual({ GetItem: 1, UpdateItem: 2 })
    // Its submit: the pending nonce, then the broadcast.
    expect(submitCost.rpc).toEqual({
      calls: 2,
      roundTrips: 2,
      byMethod: { eth_getTransactionCount: 1, eth_sendRawTransaction: 1 },
    })
    for (const [network, sent] of [
      ['ethereum', sentEth],
      ['altchain', sentAlt],
    ] as const) {
      const { txId } = sent.body.result as { txId: Hex }
      expect((await devnet(network).waitForTransactionReceipt({ hash: txId })).status).toBe(
        'success',
      )
    }
    expect(await balanceOf('ethereum', toEth, link)).toBe(parseEther('2.5'))
    expect(await balanceOf('altchain', toAlt, NATIVE_COIN)).toBe(parseEther('1.5'))
    expect(await tradesOf(alt.address)).toEqual([
      expect.objectContaining({
        type: 'transfer',
        to: toAlt,
        token: NATIVE_COIN,
        amount: '1.5',
        isNativeTransfer: true,
      }),
    ])
    expect(await tradesOf(eth.address)).toEqual([
      expect.objectContaining({
        type: 'transfer',
        to: toEth,
        token: link,
        amount: '2.5',
        isNativeTransfer: false,
      }),
    ])
  })
})
