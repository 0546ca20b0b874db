import '../../support/env'
import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  parseEther,
  parseUnits,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { swapRouter02ExactOutAbi } from '../../../lib/chain/swapRouterCallExactOut'
import { selfPermitAbi } from '../../../lib/swap/permit'
import { NATIVE_COIN } from '../../../lib/constants'
import type { NetworkName } from '../../../lib/networkNames'
import { functionName } from '../../../lib/networks/operations'
import { signAll } from '../../support/signPrepared'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { balanceOf, deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { TESTED_NETWORKS } from '../../support/networkCases'
import { networkHandler, swapOperation } from '../../support/networkRoutes'
import { signInWithWallet } from '../../support/walletSignIn'
import { tradeOnOwnCopies } from '../../support/ownCopies'

// Exact output executed (DECISIONS §10.1, issue 40 item 1): the `{key}` swap and the prepare +
// submit routes through their real handlers on the devnets, each judged by balances on chain:
// the wallet receives exactly `amount` of token1 (on a V2 leg at least that: SwapRouter02's V2
// hops pay getAmountOut of the exact input, at most a ppm more here) and pays at most the call's `amountInMax` (the
// maximums of its exact-output calls; the value sent, less the refund, for the coin). The cases
// span V2 and V3 legs, splits and the coin both ways; which shapes the routes took is asserted.

interface Side {
  address: Address
  decimals: number
  symbol: string
}

function sideOf(network: NetworkName, symbol: string): Side {
  const dex = deployment(network)
  if (symbol === 'NATIVE') return { address: NATIVE_COIN, decimals: 18, symbol }
  const token = [...dex.tokens, ...dex.zoo].find((candidate) => candidate.symbol === symbol)
  if (symbol === 'USDC') return { address: dex.usdStablecoin, decimals: 6, symbol }
  if (!token) throw new Error(`${symbol} is not on ${network}`)
  return { address: token.address, decimals: token.decimals, symbol }
}

/** Cases per catalog: [token0, token1, amount of token1]; sizes chosen to reach V2, V3 and splits. */
const CASES: Record<string, [string, string, string][]> = {
  ethereum: [
    ['USDC', 'LINK', '25'],
    ['LINK', 'USDC', '900000'],
    ['NATIVE', 'WBTC', '0.2'],
    ['UNI', 'NATIVE', '0.5'],
    ['USDC', 'WBTC', '30'],
  ],
  altchain: [
    ['USDC', 'CAKE', '40'],
    ['CAKE', 'USDC', '900000'],
    ['NATIVE', 'DOGE', '2500'],
    ['BTCB', 'NATIVE', '20'],
  ],
}

const exactOutCallAbi = [...swapRouter02ExactOutAbi, ...selfPermitAbi]

/**
 * The legs of an exact-output multicall: protocol, count, and the sum of their maximums; and the
 * value of the permit it starts with, when its input has EIP-2612 permit (USDC, DECISIONS §10.2).
 */
function exactOutCall(data: Hex) {
  const outer = decodeFunctionData({ abi: exactOutCallAbi, data })
  if (outer.functionName !== 'multicall') throw new Error('not a multicall')
  const [, inner] = outer.args
  const legs: { protocol: 'v2' | 'v3'; amountOut: bigint; amountInMax: bigint }[] = []
  const permits: bigint[] = []
  for (const call of inner.map((each) =>
    decodeFunctionData({ abi: exactOutCallAbi, data: each }),
  )) {
    if (call.functionName === 'selfPermit') permits.push(call.args[1])
    else if (call.functionName === 'exactOutputSingle' || call.functionName === 'exactOutput') {
      const [params] = call.args
      legs.push({
        protocol: 'v3',
        amountOut: params.amountOut,
        amountInMax: params.amountInMaximum,
      })
    } else if (call.functionName === 'swapTokensForExactTokens') {
      const [amountOut, amountInMax] = call.args
      legs.push({ protocol: 'v2', amountOut, amountInMax })
    }
  }
  return { legs, permits, amountInMax: legs.reduce((sum, leg) => sum + leg.amountInMax, 0n) }
}

async function funded(network: NetworkName, side: Side, amountInHint: bigint) {
  const tokens: Record<string, bigint> =
    side.symbol === 'NATIVE' ? {} : { [side.symbol]: amountInHint }
  const account = await fundedAccount(network, { tokens, native: parseEther('5000') })
  return { account, token: (await signInWithWallet(account.privateKey)).access }
}

async function quoteOf(network: NetworkName, body: Record<string, unknown>) {
  const response = await invoke(
    await networkHandler('quote', network),
    httpEvent({
      route: functionName('quote', network),
      queryStringParameters: Object.fromEntries(
        Object.entries(body).map(([name, value]) => [name, String(value)]),
      ),
    }),
  )
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body.result as { amountIn: string; amountInMax: Hex; route: unknown[] }
}

/** Balances of both sides; the coin's less nothing (gas is added back from the receipt). */
const balancesOf = (network: NetworkName, owner: Address, sides: Side[]) =>
  Promise.all(sides.map((side) => balanceOf(network, owner, side.address)))

// Its exact outputs of up to 900,000 USDC would move the shared pools' prices.
tradeOnOwnCopies(TESTED_NETWORKS)

describe('exact output, executed', () => {
  const seen = { v2: 0, v3: 0, split: 0, nativeIn: 0, nativeOut: 0 }

  for (const network of TESTED_NETWORKS) {
    for (const [symbol0, symbol1, amount] of CASES[network] ?? []) {
      it(`swaps ${symbol0} for exactly ${amount} ${symbol1} on ${network} through the {key} route: the wallet receives exactly the amount (V2: at most a ppm more) and pays at most amountInMax`, async () => {
        const [side0, side1] = [sideOf(network, symbol0), sideOf(network, symbol1)]
        const body = {
          type: 'exactOut',
          amount,
          address0: side0.address,
          decimals0: side0.decimals,
          address1: side1.address,
          decimals1: side1.decimals,
          slippageBps: 100,
        }
        const quote = await quoteOf(network, body)
        // Funded with twice the maximum: the swap's own check is not what is tested here.
        const { account, token } = await funded(network, side0, 2n * BigInt(quote.amountInMax))
        const response = await invoke(
          await networkHandler(swapOperation(network, body), network),
          httpEvent({
            route: functionName(swapOperation(network, body), network),
            pathParameters: { key: account.privateKey },
            headers: { authorization: `Bearer ${token}` },
            body,
          }),
        )
        expect(response.status, JSON.stringify(response.body)).toBe(200)
        const hash = (response.body.result as { txId: Hex }).txId
        const client = devnet(network)
        const receipt = await client.waitForTransactionReceipt({ hash })
        expect(receipt.status).toBe('success')
        const transaction = await client.getTransaction({ hash })
        const call = exactOutCall(transaction.input)
        // Around the swap's own block (anvil mines each transaction alone; approvals came before).
        const sides = [side0, side1]
        const before = await balancesAt(network, account.address, sides, receipt.blockNumber - 1n)
        const after = await balancesAt(network, account.address, sides, receipt.blockNumber)
        const coinFee = receipt.gasUsed * receipt.effectiveGasPrice
        const received =
          (after[1] ?? 0n) - (before[1] ?? 0n) + (side1.symbol === 'NATIVE' ? coinFee : 0n)
        const spent =
          (before[0] ?? 0n) - (after[0] ?? 0n) - (side0.symbol === 'NATIVE' ? coinFee : 0n)
        const wanted = parseUnits(amount, side1.decimals)
        if (call.legs.every((leg) => leg.protocol === 'v3')) expect(received).toBe(wanted)
        else {
          // A V2 leg pays the pairs' getAmountOut of its exact input: the amount or a little more.
          expect(received).toBeGreaterThanOrEqual(wanted)
          expect((received - wanted) * 1_000_000n).toBeLessThan(wanted)
        }
        expect(spent).toBeGreaterThan(0n)
        expect(spent).toBeLessThanOrEqual(call.amountInMax)
        if (side0.symbol === 'NATIVE') expect(transaction.value).toBe(call.amountInMax)
        // The {key} route signs a permit for a token that has one, for exactly the maximum: what
        // the swap did not need of it stays allowed to the router, and nothing more.
        if (side0.symbol === 'USDC') {
          expect(call.permits).toEqual([call.amountInMax])
          expect(await allowanceAt(network, side0, account.address, receipt.blockNumber)).toBe(
            call.amountInMax - spent,
          )
        } else expect(call.permits).toEqual([])
        for (const leg of call.legs) seen[leg.protocol] += 1
        if (call.legs.length > 1) seen.split += 1
        if (side0.symbol === 'NATIVE') seen.nativeIn += 1
        if (side1.symbol === 'NATIVE') seen.nativeOut += 1
        console.log(
          `${network} ${symbol0}→${amount} ${symbol1}: spent ${formatUnits(spent, side0.decimals)} of at most ${formatUnits(call.amountInMax, side0.decimals)}, legs ${call.legs.map((leg) => leg.protocol).join('+')}`,
        )
      })
    }
  }

  it('took V2 and V3 legs, a split, and the coin both ways among the cases above', () => {
    expect(seen.v2).toBeGreaterThan(0)
    expect(seen.v3).toBeGreaterThan(0)
    expect(seen.split).toBeGreaterThan(0)
    expect(seen.nativeIn).toBeGreaterThan(0)
    expect(seen.nativeOut).toBeGreaterThan(0)
  })

  for (const network of TESTED_NETWORKS) {
    it(`prepares an exact-output swap on ${network} whose signed transactions, submitted, deliver exactly the amount for at most amountInMax`, async () => {
      const [side0, side1] = [
        sideOf(network, 'USDC'),
        sideOf(network, network === 'ethereum' ? 'LINK' : 'CAKE'),
      ]
      const body = {
        type: 'exactOut',
        amount: '12.5',
        address0: side0.address,
        decimals0: side0.decimals,
        address1: side1.address,
        decimals1: side1.decimals,
      }
      const { account, token } = await funded(network, side0, parseUnits('10000', 6))
      const before = await balancesOf(network, account.address, [side0, side1])
      const prepared = await prepareRoute(`swap/tokens/${network}`, token, body)
      expect(prepared.status, JSON.stringify(prepared.body)).toBe(200)
      const result = prepared.body.result as {
        transactions: Parameters<typeof signAll>[1]
        preview: { issues: { type: string }[] }
        quote: { amountIn: string; amountInMax: Hex; amountOut: string; amountOutMin: Hex }
      }
      expect(BigInt(result.quote.amountOut)).toBeGreaterThanOrEqual(
        parseUnits('12.5', side1.decimals),
      )
      expect(BigInt(result.quote.amountOutMin)).toBe(parseUnits('12.5', side1.decimals))
      // The default slippage, 50 bps, rounded up.
      const amountIn = BigInt(result.quote.amountIn)
      expect(BigInt(result.quote.amountInMax)).toBe((amountIn * 10_050n + 9_999n) / 10_000n)
      const submitted = await submitRoute(
        network,
        token,
        await signAll(account.account, result.transactions),
      )
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
      const hash = (submitted.body.result as { txId: Hex }).txId
      const receipt = await devnet(network).waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      const after = await balancesOf(network, account.address, [side0, side1])
      const received = (after[1] ?? 0n) - (before[1] ?? 0n)
      expect(received).toBeGreaterThanOrEqual(parseUnits('12.5', side1.decimals))
      expect(received).toBe(BigInt(result.quote.amountOut))
      expect((before[0] ?? 0n) - (after[0] ?? 0n)).toBeLessThanOrEqual(
        BigInt(result.quote.amountInMax),
      )
    })

    it(`quotes exact outputs of a base unit or two, and ones whose input is under a unit of a token of 0 decimals, on ${network}: each pays at least the amount for at most amountInMax`, async () => {
      // Found by previewGenerated.test.ts: these were 422 "no liquidity path" (the inversion's
      // guessed input paid 0 units). [token0, token1, amount of token1]
      const tiny: [string, string, string][] = [
        ['NATIVE', 'USDC', '0.000001'],
        ['NATIVE', 'USDC', '0.000002'],
        ['USDC', 'WHOLE', '1'],
        ['WHOLE', 'USDC', '4'],
        ['WHOLE', 'USDC', '39'],
        ['USDC', 'NATIVE', '0.000000000000000001'],
      ]
      for (const [symbol0, symbol1, amount] of tiny) {
        const [side0, side1] = [sideOf(network, symbol0), sideOf(network, symbol1)]
        const quote = (await quoteOf(network, {
          type: 'exactOut',
          amount,
          address0: side0.address,
          decimals0: side0.decimals,
          address1: side1.address,
          decimals1: side1.decimals,
        })) as unknown as { amountIn: string; amountInMax: Hex; amountOut: string }
        const wanted = parseUnits(amount, side1.decimals)
        expect({ symbol0, symbol1, amount, pays: BigInt(quote.amountOut) >= wanted }).toEqual({
          symbol0,
          symbol1,
          amount,
          pays: true,
        })
        expect(BigInt(quote.amountIn)).toBeGreaterThan(0n)
        expect(BigInt(quote.amountIn)).toBeLessThanOrEqual(BigInt(quote.amountInMax))
      }
    })

    it(`refuses an exact output through the fee-on-transfer token on ${network} with a 422 that says why`, async () => {
      const [side0, side1] = [sideOf(network, 'USDC'), sideOf(network, 'FOT')]
      const response = await invoke(
        await networkHandler('quote', network),
        httpEvent({
          route: functionName('quote', network),
          queryStringParameters: {
            type: 'exactOut',
            amount: '100',
            address0: side0.address,
            decimals0: String(side0.decimals),
            address1: side1.address,
            decimals1: String(side1.decimals),
          },
        }),
      )
      expect(response.status).toBe(422)
      expect(JSON.stringify(response.body)).toMatch(/fee on transfer/)
    })
  }
})

/** Balances of both sides at a block (the coin's with the account's balance). */
function balancesAt(network: NetworkName, owner: Address, sides: Side[], blockNumber: bigint) {
  const client = devnet(network)
  return Promise.all(
    sides.map((side) =>
      side.symbol === 'NATIVE'
        ? client.getBalance({ address: owner, blockNumber })
        : client.readContract({
            address: side.address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [owner],
            blockNumber,
          }),
    ),
  )
}

/** The router's allowance from `owner` in `side`'s token at a block. */
function allowanceAt(network: NetworkName, side: Side, owner: Address, blockNumber: bigint) {
  return devnet(network).readContract({
    address: side.address,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, deployment(network).swapRouter],
    blockNumber,
  })
}
