import '../../support/env'
import { type Address, decodeFunctionData, erc20Abi, type Hash, parseAbi, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { swapRouter02Abi } from '../../../lib/chain/swapRouterCall'
import { loadChainConfig } from '../../../lib/config'
import { type NetworkName } from '../../../lib/networkNames'
import { NETWORK_TABLE } from '../../../lib/networks'
import { functionName } from '../../../lib/networks/operations'
import { LOOKUPS_PER_CALL } from '../../../lib/routing/providers/readPools'
import { NATIVE_COIN } from '../../../lib/constants'
import { db } from '../../../lib/db/client'
import { listTrades } from '../../../lib/db/trade'
import type { DeployedZooToken } from '../../../lib/local/deployDex'
import { balanceOf, deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { bearer } from '../../support/marketFixtures'
import { networkHandler, swapOperation } from '../../support/networkRoutes'
import type { TransferFeeBps } from '../../support/pairReserves'
import { countRequests, type RequestCounter } from '../../support/requestCounters'
import { expectSwapMatchesQuote, quoteFor, type SwapRequest } from '../../support/swapChecks'
import { signInWithWallet } from '../../support/walletSignIn'
import { TESTED_NETWORKS } from '../../support/networkCases'

// The token zoo (DECISIONS §7.2, issue 12) through the real handlers on every devnet: every zoo
// token bought with the native coin, sold for it, and transferred; and zoo pairs whose pools
// sit on different base tokens, reachable in 3 hops only. Each swap's quote (asked first, with
// 0 bps of slippage, so amountOutMin is the quoted amount) is compared with what the wallet's
// balance gained on chain, to the base unit.

const NETWORKS = TESTED_NETWORKS
const SYMBOLS = ['USDT', 'FOT', 'WHOLE', 'DEEP'] as const
type ZooSymbol = (typeof SYMBOLS)[number]

/** Per zoo token: what a wallet is funded with, sells, and transfers (whole units). */
const AMOUNTS: Record<ZooSymbol, { fund: string; sell: string; transfer: string }> = {
  USDT: { fund: '1000', sell: '250.5', transfer: '12.5' },
  FOT: { fund: '5000', sell: '1234.56789', transfer: '100' },
  WHOLE: { fund: '10', sell: '3', transfer: '2' },
  // 24 decimals: every digit counts, down to one base unit transferred.
  DEEP: {
    fund: '100000',
    sell: '12345.678901234567890123',
    transfer: '0.000000000000000000000001',
  },
}
const NATIVE_SPENT = '0.5'

const feeOnTransferAbi = parseAbi(['function FEE_BPS() view returns (uint256)'])

function zooToken(network: NetworkName, symbol: ZooSymbol): DeployedZooToken {
  const found = deployment(network).zoo.find((token) => token.symbol === symbol)
  if (!found) throw new Error(`no ${symbol} in the ${network} zoo`)
  return found
}

/** Each zoo token's fee on transfer, read from its contract (not from the service's code). */
const fees = new Map<string, bigint>()
// Both devnets deploy from the same account and nonces, so a token has the same address on both.
const feeBpsOn =
  (network: NetworkName): TransferFeeBps =>
  (token) =>
    fees.get(`${network}:${token.toLowerCase()}`) ?? 0n

beforeAll(async () => {
  for (const network of NETWORKS) {
    for (const token of deployment(network).zoo) {
      if (token.kind !== 'feeOnTransfer') continue
      const fee = await devnet(network).readContract({
        address: token.address,
        abi: feeOnTransferAbi,
        functionName: 'FEE_BPS',
      })
      fees.set(`${network}:${token.address.toLowerCase()}`, fee)
    }
  }
  expect([...fees.values()].every((fee) => fee > 0n)).toBe(true)
  expect(fees.size).toBe(NETWORKS.length)
})

async function swapThroughRoute(
  network: NetworkName,
  { privateKey, access, body }: { privateKey: string; access: string; body: SwapRequest },
): Promise<Hash> {
  // On a network with a native swap route (altchain's shape), the native coin goes through it.
  const operation = swapOperation(network, body)
  const response = await invoke(
    await networkHandler(operation, network),
    httpEvent({
      route: functionName(operation, network),
      pathParameters: { key: privateKey },
      headers: bearer(access),
      body: { ...body, slippageBps: 0 },
    }),
  )
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return (response.body.result as { txId: Hash }).txId
}

/** Asks the route's quote, swaps through the route, and checks the balances against it. */
async function quoteSwapAndCheck(
  network: NetworkName,
  wallet: { privateKey: string; address: Address; access: string },
  body: SwapRequest,
) {
  const quote = await quoteFor(network, body)
  const hash = await swapThroughRoute(network, { ...wallet, body })
  const { received } = await expectSwapMatchesQuote(network, {
    owner: wallet.address,
    hash,
    request: body,
    quote,
    feeBps: feeBpsOn(network),
  })
  return { quote, received }
}

async function zooWallet(network: NetworkName, funded: Partial<Record<ZooSymbol, bigint>> = {}) {
  const account = await fundedAccount(network, { tokens: funded })
  const { access } = await signInWithWallet(account.privateKey)
  return { ...account, access }
}

// First in the file: the quote code's module is fresh, so no balance slot is known yet.
describe('RPC round trips of a zoo quote', () => {
  let counter: RequestCounter

  beforeAll(() => {
    counter = countRequests(db())
  })

  afterAll(() => counter.stop())

  const quote = async (network: NetworkName, query: Record<string, string>) =>
    invoke(
      await networkHandler('quote', network),
      httpEvent({ route: functionName('quote', network), queryStringParameters: query }),
    )

  const query = (
    from: DeployedZooToken | 'coin',
    to: DeployedZooToken | 'coin',
    amount: string,
  ) => ({
    amount,
    address0: from === 'coin' ? NATIVE_COIN : from.address,
    decimals0: String(from === 'coin' ? 18 : from.decimals),
    address1: to === 'coin' ? NATIVE_COIN : to.address,
    decimals1: String(to === 'coin' ? 18 : to.decimals),
  })

  it.each(NETWORKS)(
    'on %s: two round trips, the first time a token goes in as after; its balance slot once',
    async (network) => {
      const measured: Array<[string, number, number]> = []
      const measure = async (label: string, parameters: Record<string, string>) => {
        counter.take()
        const response = await quote(network, parameters)
        const { rpc } = counter.take()
        expect(response.status).toBe(200)
        measured.push([label, rpc.roundTrips, rpc.calls])
      }
      for (const symbol of SYMBOLS) {
        const token = zooToken(network, symbol)
        const sell = query(token, 'coin', AMOUNTS[symbol].sell)
        await measure(`${symbol}→coin`, sell)
        await measure(`${symbol}→coin again`, sell)
        await measure(`coin→${symbol}`, query('coin', token, NATIVE_SPENT))
      }
      const [whole, deep] = [zooToken(network, 'WHOLE'), zooToken(network, 'DEEP')]
      await measure('DEEP→WHOLE', query(deep, whole, '50000'))
      await measure('WHOLE→DEEP', query(whole, deep, '4'))

      // Two round trips each (bestRoute): the pools among the ends, the base tokens and the
      // connectors read by the lens, with the gas price and the block (and, the first time a
      // token goes in, its balance slot: one eth_call more); then the route's simulation (and the
      // best V2 route's beside it, for fee-on-transfer tokens). Calls stay under the bound the
      // configuration sets, whatever the pools.
      const { baseTokens, connectorTokens, v3 } = loadChainConfig(network)
      const tokens = 2 + baseTokens.length + connectorTokens.length
      const lookups = ((tokens * (tokens - 1)) / 2) * (1 + (v3?.feeTiers.length ?? 0))
      const bound = Math.ceil(lookups / LOOKUPS_PER_CALL) + 2 + 1 + 2
      expect(measured.every(([, roundTrips]) => roundTrips === 2)).toBe(true)
      expect(measured.every(([, , calls]) => calls <= bound)).toBe(true)
      for (const symbol of SYMBOLS) {
        const calls = (label: string) => measured.find(([named]) => named === label)?.[2] ?? 0
        expect(calls(`${symbol}→coin`) - calls(`${symbol}→coin again`)).toBe(1)
      }
      console.log(`${network} zoo quotes [quote, round trips, calls], bound ${bound}:`, measured)
    },
  )
})

describe.each(NETWORKS)('the token zoo on %s', (network) => {
  describe.each(SYMBOLS)('%s', (symbol) => {
    const token = () => zooToken(network, symbol)
    const side = () => ({ address: token().address, decimals: token().decimals })

    it('is bought with the native coin for exactly the quoted amount', async () => {
      const wallet = await zooWallet(network)
      const body = {
        amount: NATIVE_SPENT,
        address0: NATIVE_COIN,
        decimals0: 18,
        address1: side().address,
        decimals1: side().decimals,
      }

      const { received } = await quoteSwapAndCheck(network, wallet, body)

      expect(received).toBeGreaterThan(0n)
      expect(await balanceOf(network, wallet.address, token().address)).toBe(received)
    })

    it('is sold for the native coin for exactly the quoted amount', async () => {
      const wallet = await zooWallet(network, {
        [symbol]: parseUnits(AMOUNTS[symbol].fund, token().decimals),
      })
      if (token().kind === 'tetherStyle') {
        // A smaller allowance given before: the service must reset it to 0 first.
        const approval = await wallet.wallet.writeContract({
          address: token().address,
          abi: erc20Abi,
          functionName: 'approve',
          args: [deployment(network).swapRouter, 1n],
        })
        await devnet(network).waitForTransactionReceipt({ hash: approval })
      }
      const body = {
        amount: AMOUNTS[symbol].sell,
        address0: side().address,
        decimals0: side().decimals,
        address1: NATIVE_COIN,
        decimals1: 18,
      }

      const { received } = await quoteSwapAndCheck(network, wallet, body)

      expect(received).toBeGreaterThan(0n)
      const { trades } = await listTrades({
        wallet: wallet.address,
        limit: 10,
        offset: 0,
        direction: 'ASC',
      })
      expect(trades.map((trade) => [trade.type, trade.amount])).toEqual([
        ...(token().kind === 'tetherStyle' ? [['approval', '0']] : []),
        ['approval', AMOUNTS[symbol].sell],
        ['swap', AMOUNTS[symbol].sell],
      ])
    })

    it('is transferred: the sender pays the amount, recorded as sent', async () => {
      const wallet = await zooWallet(network, {
        [symbol]: parseUnits(AMOUNTS[symbol].fund, token().decimals),
      })
      const to = privateKeyToAccount(generatePrivateKey()).address
      const amount = parseUnits(AMOUNTS[symbol].transfer, token().decimals)
      const before = await balanceOf(network, wallet.address, token().address)

      const response = await invoke(
        await networkHandler('transfer', network),
        httpEvent({
          route: functionName('transfer', network),
          pathParameters: { key: wallet.privateKey },
          headers: bearer(wallet.access),
          body: {
            to,
            amount: AMOUNTS[symbol].transfer,
            token: token().address,
            decimals: token().decimals,
          },
        }),
      )

      expect(response.status, JSON.stringify(response.body)).toBe(200)
      const { txId } = response.body.result as { txId: Hash }
      const receipt = await devnet(network).waitForTransactionReceipt({ hash: txId })
      expect(receipt.status).toBe('success')
      const fee = (amount * feeBpsOn(network)(token().address)) / 10_000n
      expect(before - (await balanceOf(network, wallet.address, token().address))).toBe(amount)
      expect(await balanceOf(network, to, token().address)).toBe(amount - fee)
      const { trades } = await listTrades({
        wallet: wallet.address,
        limit: 10,
        offset: 0,
        direction: 'ASC',
      })
      expect(trades.map((trade) => [trade.type, trade.amount, trade.to])).toEqual([
        ['transfer', AMOUNTS[symbol].transfer, to],
      ])
    })
  })

  it.each([
    ['WHOLE', 'DEEP', '4'],
    ['DEEP', 'WHOLE', '50000'],
    ['FOT', 'USDT', '2000'],
    ['USDT', 'FOT', '300'],
  ] as const)(
    'swaps %s for %s, pooled on different bases, for exactly the quote',
    async (from, to, amount) => {
      const [tokenIn, tokenOut] = [zooToken(network, from), zooToken(network, to)]
      const wallet = await zooWallet(network, {
        [from]: parseUnits(AMOUNTS[from].fund, tokenIn.decimals),
      })
      const body = {
        amount,
        address0: tokenIn.address,
        decimals0: tokenIn.decimals,
        address1: tokenOut.address,
        decimals1: tokenOut.decimals,
      }

      const { quote, received } = await quoteSwapAndCheck(network, wallet, body)

      // A fee-on-transfer token's hops are V2 (DECISIONS §9.3: SwapRouter02's V2 swap pays what
      // arrived); the other hops may be V3 and split. Priced apart with its fees by
      // expectSwapMatchesQuote above.
      if (from === 'FOT' || to === 'FOT') {
        const fot = zooToken(network, 'FOT').address.toLowerCase()
        const moving = quote.route
          .flatMap((leg) => leg.hops)
          .filter((hop) => [hop.tokenIn, hop.tokenOut].some((t) => t.toLowerCase() === fot))
        expect(moving.length).toBeGreaterThan(0)
        expect(moving.every((hop) => hop.protocol === 'v2')).toBe(true)
      }
      expect(received).toBeGreaterThan(0n)
    },
  )
})

// The networks whose quote answers the router call (ethereum's shape).
const WITH_CALL = NETWORKS.filter((network) => NETWORK_TABLE[network].routes.quoteCall)

describe.each(WITH_CALL)('the %s quote of a zoo token', (network) => {
  it.each([
    ['FOT', 'coin', true],
    ['coin', 'FOT', true],
    ['FOT', 'USDT', true],
    ['USDT', 'coin', false],
    ['WHOLE', 'DEEP', false],
  ] as const)(
    '%s → %s: one SwapRouter02 multicall (the fee-on-transfer hops V2: %s), its minimum the quote less slippage',
    async (from, to, feeOnTransfer) => {
      const side = (symbol: ZooSymbol | 'coin') =>
        symbol === 'coin'
          ? { address: NATIVE_COIN, decimals: 18, amount: NATIVE_SPENT }
          : {
              address: zooToken(network, symbol).address,
              decimals: zooToken(network, symbol).decimals,
              amount: AMOUNTS[symbol].sell,
            }
      const [zero, one] = [side(from), side(to)]

      const response = await invoke(
        await networkHandler('quote', network),
        httpEvent({
          route: functionName('quote', network),
          queryStringParameters: {
            amount: zero.amount,
            address0: zero.address,
            decimals0: String(zero.decimals),
            address1: one.address,
            decimals1: String(one.decimals),
            slippageBps: '100',
          },
        }),
      )

      expect(response.status).toBe(200)
      const result = response.body.result as {
        calldata: `0x${string}`
        amountOutMin: `0x${string}`
        amountOut: string
      }
      const outer = decodeFunctionData({ abi: swapRouter02Abi, data: result.calldata })
      if (outer.functionName !== 'multicall') throw new Error(outer.functionName)
      const calls = outer.args[1].map((data) => decodeFunctionData({ abi: swapRouter02Abi, data }))
      // Every call that moves the fee-on-transfer token is SwapRouter02's V2 swap (it pays what
      // arrived); the others may be V3.
      if (feeOnTransfer) {
        const fot = zooToken('ethereum', 'FOT').address.toLowerCase()
        const moving = calls.filter((call) =>
          call.functionName === 'swapExactTokensForTokens'
            ? call.args[2].some((t) => t.toLowerCase() === fot)
            : call.functionName === 'exactInput'
              ? call.args[0].path.toLowerCase().includes(fot.slice(2))
              : false,
        )
        expect(moving.length).toBeGreaterThan(0)
        expect(moving.every((call) => call.functionName === 'swapExactTokensForTokens')).toBe(true)
      }
      const last = calls[calls.length - 1]
      const amountOutMin =
        last?.functionName === 'exactInput'
          ? last.args[0].amountOutMinimum
          : last?.functionName === 'swapExactTokensForTokens'
            ? last.args[1]
            : last?.args[last.args.length - 2]
      expect(amountOutMin).toBe(BigInt(result.amountOutMin))
      // 1% of slippage off the exact quote, floored to a base unit.
      expect(BigInt(result.amountOutMin)).toBe((BigInt(result.amountOut) * 9_900n) / 10_000n)
    },
  )
})
