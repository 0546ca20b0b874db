import '../../support/env'
import {
  type Address,
  decodeFunctionData,
  decodeFunctionResult,
  type Hash,
  type Hex,
  isAddressEqual,
  maxUint256,
  parseAbi,
  parseUnits,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { segmentsOf, swapRouter02Abi, swapRouterCall } from '../../../lib/chain/swapRouterCall'
import type { NetworkName } from '../../../lib/networkNames'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { creditToken } from '../../support/listedToken'
import { bearer } from '../../support/marketFixtures'
import { byCatalog, TESTED_NETWORKS } from '../../support/networkCases'
import { networkHandler } from '../../support/networkRoutes'
import { signAll, type PreparedTransaction } from '../../support/signPrepared'
import {
  expectSwapMatchesQuote,
  quoteFor,
  type QuoteSnapshot,
  type SwapRequest,
} from '../../support/swapChecks'
import { signInWithWallet } from '../../support/walletSignIn'

// A split whose output takes a fee on transfer pays that fee once (issue 33, DECISIONS §9.3): the
// brute force's cases worse by ~300 bps (every one a split into the zoo's FOT, which burns 3 % of
// every transfer). Before, every leg paid the router and `sweepToken` moved the whole to the
// wallet: a second transfer, a second fee. Replayed on the suite devnets through the real
// handlers, at the reference's sizes (about 50 % of the deepest pool of the input): the quote, the
// `{key}` swap and prepare + submit each pay exactly the quote, at least what the router's sweep
// would have paid on the same block (its legs' outputs from an eth_call of that call, less the
// token's own fee on the sweep's transfer).

/** The case by the network's demo catalog. */
const CASES = {
  ethereum: { from: 'WBTC', amount: '50.46939946' },
  altchain: { from: 'BTCB', amount: '50.594708999041788741' },
}

const feeOnTransferAbi = parseAbi(['function FEE_BPS() view returns (uint256)'])

function fot(network: NetworkName) {
  const found = deployment(network).zoo.find((token) => token.symbol === 'FOT')
  if (!found) throw new Error(`no FOT on ${network}`)
  return found
}

/** The token's fee on transfer in basis points, read from its contract. */
function feeBpsOf(network: NetworkName): Promise<bigint> {
  return devnet(network).readContract({
    address: fot(network).address,
    abi: feeOnTransferAbi,
    functionName: 'FEE_BPS',
  })
}

/** A signed-in wallet holding the case's input, credited in storage (buying it moves pools). */
async function caseWallet(network: NetworkName) {
  const { from, amount } = byCatalog(network, CASES)
  const token = deployment(network).tokens.find((candidate) => candidate.symbol === from)
  if (!token) throw new Error(`no ${from} on ${network}`)
  const funded = await fundedAccount(network)
  await creditToken(network, token.address, funded.address, parseUnits(amount, token.decimals))
  const { access } = await signInWithWallet(funded.privateKey)
  const request: SwapRequest = {
    amount,
    address0: token.address,
    decimals0: token.decimals,
    address1: fot(network).address,
    decimals1: fot(network).decimals,
  }
  return { ...funded, access, request }
}

/**
 * What the router's sweep shape (every leg paying the router, then `sweepToken` to the wallet)
 * pays the wallet along the quote's route at `blockNumber`: the legs' outputs as the router
 * returns them from an eth_call from the wallet, less the fee the sweep's transfer takes.
 */
async function sweptAmount(
  network: NetworkName,
  owner: Address,
  quote: QuoteSnapshot,
  blockNumber: bigint,
  feeBps: bigint,
): Promise<bigint> {
  const legs = quote.route.map((leg) => ({
    amountIn: BigInt(leg.hops[0]?.amountIn ?? '0'),
    hops: leg.hops.map((hop) => ({
      protocol: hop.protocol,
      fee: hop.fee ?? 0,
      tokenIn: hop.tokenIn,
      tokenOut: hop.tokenOut,
    })),
  }))
  const swept = swapRouterCall({
    legs,
    amountOutMin: 0n,
    recipient: owner,
    deadline: maxUint256,
    nativeIn: false,
    nativeOut: false,
  })
  const { data } = await devnet(network).call({
    account: owner,
    to: deployment(network).swapRouter,
    data: swept.data,
    blockNumber,
  })
  const results = decodeFunctionResult({
    abi: swapRouter02Abi,
    functionName: 'multicall',
    data: data ?? '0x',
  })
  // Each leg's last router call is its output, paid to the router.
  let call = -1
  let collected = 0n
  for (const leg of legs) {
    call += segmentsOf(leg.hops).length
    const result = results[call]
    if (result === undefined) throw new Error(`no result for the router's call ${call}`)
    collected += BigInt(result)
  }
  expect(results.length).toBe(call + 2)
  return collected - (collected * feeBps) / 10_000n
}

/** The mined swap: every leg paying the wallet itself, no sweep through the router. */
async function expectLegsPayWallet(network: NetworkName, hash: Hash, owner: Address, legs: number) {
  const transaction = await devnet(network).getTransaction({ hash })
  const outer = decodeFunctionData({ abi: swapRouter02Abi, data: transaction.input })
  if (outer.functionName !== 'multicall') throw new Error(outer.functionName)
  const calls = outer.args[1].map((data) => decodeFunctionData({ abi: swapRouter02Abi, data }))
  expect(calls.map((call) => call.functionName)).not.toContain('sweepToken')
  const toWallet = calls.filter(
    (call) =>
      call.functionName === 'swapExactTokensForTokens' && isAddressEqual(call.args[3], owner),
  )
  expect(toWallet.length).toBe(legs)
}

describe.each(TESTED_NETWORKS)('a split into a fee-on-transfer token on %s', (network) => {
  it('pays the quote exactly through the {key} swap, at least what the router sweep paid', async () => {
    const wallet = await caseWallet(network)
    const feeBps = await feeBpsOf(network)
    const quote = await quoteFor(network, wallet.request)
    expect(quote.route.length).toBeGreaterThan(1)

    const response = await invoke(
      await networkHandler('swapTokens', network),
      httpEvent({
        routeKey: `POST /api/v1/swap/tokens/${network}/{key}`,
        pathParameters: { key: wallet.privateKey },
        headers: bearer(wallet.access),
        body: { ...wallet.request, slippageBps: 0 },
      }),
    )
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    const { txId } = response.body.result as { txId: Hash }
    // Exactly the route's figure computed apart (one fee per leg's transfer to the wallet), and
    // the quote's amount when no other trade moved those pools between.
    const { receipt, received } = await expectSwapMatchesQuote(network, {
      owner: wallet.address,
      hash: txId,
      request: wallet.request,
      quote,
      feeBps: (token) => (isAddressEqual(token, fot(network).address) ? feeBps : 0n),
    })
    await expectLegsPayWallet(network, txId, wallet.address, quote.route.length)
    const before = receipt.blockNumber - 1n
    const swept = await sweptAmount(network, wallet.address, quote, before, feeBps)
    expect(received).toBeGreaterThan(swept)
    console.log(`${network} {key}: received ${received}, the router's sweep ${swept}`)
  })

  it('pays the quote exactly through prepare and submit, each leg with its share of amountOutMin', async () => {
    const wallet = await caseWallet(network)
    const feeBps = await feeBpsOf(network)

    const prepared = await prepareRoute(`swap/tokens/${network}`, wallet.access, {
      ...wallet.request,
      slippageBps: 0,
    })
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200)
    const { transactions, quote: answered } = prepared.body.result as {
      transactions: PreparedTransaction[]
      quote: {
        amountOut: string
        amountOutMin: Hex
        path: Address[]
        route: QuoteSnapshot['route']
        blockNumber: string
      }
    }
    const quote: QuoteSnapshot = {
      amountOut: BigInt(answered.amountOut),
      path: answered.path,
      route: answered.route,
      blockNumber: BigInt(answered.blockNumber),
    }
    expect(quote.route.length).toBeGreaterThan(1)
    // With 0 bps each leg's minimum is its simulated amount exactly: one unit short reverts.
    expect(BigInt(answered.amountOutMin)).toBe(quote.amountOut)
    const submitted = await submitRoute(
      network,
      wallet.access,
      await signAll(wallet.account, transactions),
    )
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    const { txId } = submitted.body.result as { txId: Hash }

    const { receipt, received } = await expectSwapMatchesQuote(network, {
      owner: wallet.address,
      hash: txId,
      request: wallet.request,
      quote,
      feeBps: (token) => (isAddressEqual(token, fot(network).address) ? feeBps : 0n),
    })
    await expectLegsPayWallet(network, txId, wallet.address, quote.route.length)
    const swept = await sweptAmount(
      network,
      wallet.address,
      quote,
      receipt.blockNumber - 1n,
      feeBps,
    )
    expect(received).toBeGreaterThan(swept)
  })
})
