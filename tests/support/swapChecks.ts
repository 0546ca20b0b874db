import {
  type Address,
  decodeFunctionData,
  type Hash,
  isAddressEqual,
  parseAbi,
  parseUnits,
} from 'viem'
import { v3Swap } from '@uniswap/v3-sdk'
import JSBI from 'jsbi'
import { expect } from 'vitest'
import { swapRouter02Abi } from '../../lib/chain/swapRouterCall'
import { LOOKUPS_PER_CALL, poolLookups } from '../../lib/routing/providers/readPools'
import { loadChainConfig } from '../../lib/config'
import type { NetworkName } from '../../lib/networkNames'
import { functionName } from '../../lib/networks/operations'
import { pairsToRead } from '../../lib/routing/providers/tokenPairs'
import type { RouteHopAnswer } from '../../lib/swap/routeAnswer'
import { NATIVE_COIN } from '../../lib/constants'
import { quoterV2Abi } from '../../lib/local/v3Artifacts'
import { balanceOf, deployment, devnet } from './devnetAccounts'
import { httpEvent, invoke } from './httpEvent'
import { ChainTicks } from './chainTicks'
import { networkHandler } from './networkRoutes'
import { amountOutAlong, constantProductOut, type TransferFeeBps } from './pairReserves'

// Checks that an executed swap moved exactly what the quote said, against the chain itself.

export interface SwapRequest {
  amount: string
  address0: Address
  decimals0: number
  address1: Address
  decimals1: number
}

/** One hop of a quote's `route` (DECISIONS §8.1), as the service answers it. */
export type QuotedHop = RouteHopAnswer

export interface QuoteSnapshot {
  /** Exact amount out (the quote is asked with 0 bps, so amountOutMin is the amount out). */
  amountOut: bigint
  path: Address[]
  route: { shareBps: number; hops: QuotedHop[] }[]
  blockNumber: bigint
}

/** The service's quote for a swap request, taken while no block was mined. */
export async function quoteFor(network: NetworkName, request: SwapRequest): Promise<QuoteSnapshot> {
  const handler = await networkHandler('quote', network)
  const client = devnet(network)
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    const response = await invoke(
      handler,
      httpEvent({
        route: functionName('quote', network),
        queryStringParameters: {
          amount: request.amount,
          address0: request.address0,
          decimals0: String(request.decimals0),
          address1: request.address1,
          decimals1: String(request.decimals1),
          slippageBps: '0',
        },
      }),
    )
    expect(response.status).toBe(200)
    if ((await client.getBlockNumber({ cacheTime: 0 })) !== blockNumber) continue
    const result = response.body.result as {
      amountOutMin: `0x${string}`
      amountOut: string
      path: Address[]
      route: QuoteSnapshot['route']
    }
    expect(BigInt(result.amountOut)).toBe(BigInt(result.amountOutMin))
    return {
      amountOut: BigInt(result.amountOut),
      path: result.path,
      route: result.route,
      blockNumber,
    }
  }
  throw new Error(`${network} kept mining during the quote`)
}

const v2PairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)'])
const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint32, bool)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
])

/** A pool's price state at a block: V2 reserves, or V3 price, tick and liquidity. */
async function poolState(network: NetworkName, hop: QuotedHop, blockNumber: bigint) {
  const client = devnet(network)
  if (hop.protocol === 'v2') {
    const [reserve0, reserve1] = await client.readContract({
      address: hop.pool,
      abi: v2PairAbi,
      functionName: 'getReserves',
      blockNumber,
    })
    return `${reserve0}:${reserve1}`
  }
  const [[sqrtPriceX96, tick], liquidity] = await Promise.all([
    client.readContract({ address: hop.pool, abi: v3PoolAbi, functionName: 'slot0', blockNumber }),
    client.readContract({
      address: hop.pool,
      abi: v3PoolAbi,
      functionName: 'liquidity',
      blockNumber,
    }),
  ])
  return `${sqrtPriceX96}:${tick}:${liquidity}`
}

/** Whether no trade touched the route's pools between blocks `a` and `b`. */
async function samePools(
  network: NetworkName,
  route: QuoteSnapshot['route'],
  a: bigint,
  b: bigint,
) {
  for (const hop of route.flatMap((leg) => leg.hops)) {
    const [before, after] = await Promise.all([
      poolState(network, hop, a),
      poolState(network, hop, b),
    ])
    if (before !== after) return false
  }
  return true
}

/**
 * What the quote's route pays at `blockNumber`, computed apart from the service: V2 hops by the
 * pair reserves and the constant-product formula (with transfer fees as `feeBps` names them),
 * V3 hops by the network's QuoterV2 (Uniswap's, PancakeSwap's), each leg from its own input.
 * Where legs share a pool, the router runs them one after the other on it: then they are priced
 * in order on one copy of the pools (routeOutInSequence).
 */
export async function routeOutAt(
  network: NetworkName,
  route: QuoteSnapshot['route'],
  blockNumber: bigint,
  feeBps: TransferFeeBps,
): Promise<bigint> {
  const pools = route.flatMap((leg) => [...new Set(leg.hops.map((hop) => hop.pool.toLowerCase()))])
  if (new Set(pools).size !== pools.length) {
    return routeOutInSequence(network, route, blockNumber, feeBps)
  }
  let total = 0n
  for (const leg of route) {
    let amount = BigInt(leg.hops[0]?.amountIn ?? '0')
    let v2Segment: Address[] = []
    const flushV2 = async () => {
      if (v2Segment.length < 2) return
      const out = await amountOutAlong(network, amount, v2Segment, blockNumber, feeBps)
      if (out === undefined) throw new Error(`no V2 pair along ${v2Segment.join(' > ')}`)
      amount = out
      v2Segment = []
    }
    for (const hop of leg.hops) {
      if (hop.protocol === 'v2') {
        if (v2Segment.length === 0) v2Segment.push(hop.tokenIn)
        v2Segment.push(hop.tokenOut)
        continue
      }
      await flushV2()
      const { result } = await devnet(network).simulateContract({
        address: deployment(network).v3.quoter,
        abi: quoterV2Abi,
        functionName: 'quoteExactInputSingle',
        args: [
          {
            tokenIn: hop.tokenIn,
            tokenOut: hop.tokenOut,
            amountIn: amount,
            fee: hop.fee ?? 0,
            sqrtPriceLimitX96: 0n,
          },
        ],
        blockNumber,
      })
      amount = result[0]
    }
    await flushV2()
    total += amount
  }
  return total
}

/**
 * Asserts the mined swap `hash` is one SwapRouter02 call that took exactly `amount` of address0
 * from `owner` and paid out what the quote's route gives at the block before it, computed apart
 * (routeOutAt); and, when no other trade touched those pools since `quote`, exactly the quoted
 * amount. `feeBps` names the tokens that take a fee on transfer, taken off as the token takes it.
 */
export async function expectSwapMatchesQuote(
  network: NetworkName,
  {
    owner,
    hash,
    request,
    quote,
    feeBps = () => 0n,
  }: {
    owner: Address
    hash: Hash
    request: SwapRequest
    quote: QuoteSnapshot
    feeBps?: TransferFeeBps
  },
) {
  const client = devnet(network)
  // The route answers once the node accepted the transaction, not once it is mined.
  const receipt = await client.waitForTransactionReceipt({ hash })
  const transaction = await client.getTransaction({ hash })
  expect(receipt.status).toBe('success')
  expect(transaction.to?.toLowerCase()).toBe(deployment(network).swapRouter.toLowerCase())
  expect(decodeFunctionData({ abi: swapRouter02Abi, data: transaction.input }).functionName).toBe(
    'multicall',
  )
  const amountIn = parseUnits(request.amount, request.decimals0)
  const before = receipt.blockNumber - 1n
  const gas = receipt.gasUsed * receipt.effectiveGasPrice
  const nativeIn = isAddressEqual(request.address0, NATIVE_COIN)
  const nativeOut = isAddressEqual(request.address1, NATIVE_COIN)

  const [in0, in1, out0, out1, expectedOut] = await Promise.all([
    balanceOf(network, owner, request.address0, before),
    balanceOf(network, owner, request.address0, receipt.blockNumber),
    balanceOf(network, owner, request.address1, before),
    balanceOf(network, owner, request.address1, receipt.blockNumber),
    routeOutAt(network, quote.route, before, feeBps),
  ])
  const spent = in0 - in1 - (nativeIn ? gas : 0n)
  const received = out1 - out0 + (nativeOut ? gas : 0n)

  expect(transaction.value).toBe(nativeIn ? amountIn : 0n)
  expect(spent).toBe(amountIn)
  expect(received).toBe(expectedOut)
  if (await samePools(network, quote.route, quote.blockNumber, before)) {
    expect(received).toBe(quote.amountOut)
  }
  return { receipt, received }
}

/**
 * The RPC calls a warm quote makes (lib/routing/quote/bestRoute.ts): the lens calls over the pools
 * among the ends, the base tokens and the configured connectors, and one simulation (both ends
 * seen plain by an earlier quote in the container; a first quote of a token also simulates the
 * fee-safe plans beside it).
 */
export function quoteCallsOf(
  network: NetworkName,
  tokenIn: Address,
  tokenOut: Address,
): { lens: number; simulations: number } {
  const { baseTokens, connectorTokens } = loadChainConfig(network)
  const pairs = pairsToRead(tokenIn, tokenOut, [...baseTokens, ...connectorTokens])
  return { lens: Math.ceil(poolLookups(network, pairs).length / LOOKUPS_PER_CALL), simulations: 1 }
}

const sequencePairAbi = parseAbi([
  'function token0() view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function balanceOf(address) view returns (uint256)',
])

type PoolCopy =
  | {
      kind: 'v2'
      token0: Address
      reserve0: bigint
      reserve1: bigint
      /** The pair's balances: above the reserves where tokens were sent to it unsynced. */
      balance0: bigint
      balance1: bigint
    }
  | {
      kind: 'v3'
      sqrtPrice: JSBI
      liquidity: JSBI
      tick: number
      spacing: number
      ticks: ChainTicks
    }

/**
 * The route's legs in the router's order on one copy of the pools at `blockNumber`: V2 hops by
 * reserves and the constant-product formula on what the pair holds above its reserve of the input
 * (transfer fees as in amountOutAlong), reserves then synced to the pair's balances as the pair
 * does (a surplus sent to it unsynced goes to the next leg), V3 hops by the
 * Uniswap SDK's swap loop over ticks read from the pool itself (ChainTicks), each pool as the
 * legs before left it.
 */
export async function routeOutInSequence(
  network: NetworkName,
  route: QuoteSnapshot['route'],
  blockNumber: bigint,
  feeBps: TransferFeeBps,
): Promise<bigint> {
  const client = devnet(network)
  const copies = new Map<string, PoolCopy>()
  const copyOf = async (hop: QuotedHop): Promise<PoolCopy> => {
    const known = copies.get(hop.pool.toLowerCase())
    if (known) return known
    if (hop.protocol === 'v2') {
      const held = (token: Address) =>
        client.readContract({
          address: token,
          abi: sequencePairAbi,
          functionName: 'balanceOf',
          args: [hop.pool],
          blockNumber,
        })
      const [token0, [reserve0, reserve1], heldIn, heldOut] = await Promise.all([
        client.readContract({
          address: hop.pool,
          abi: sequencePairAbi,
          functionName: 'token0',
          blockNumber,
        }),
        client.readContract({
          address: hop.pool,
          abi: sequencePairAbi,
          functionName: 'getReserves',
          blockNumber,
        }),
        held(hop.tokenIn),
        held(hop.tokenOut),
      ])
      const inIsToken0 = isAddressEqual(token0, hop.tokenIn)
      return {
        kind: 'v2',
        token0,
        reserve0,
        reserve1,
        balance0: inIsToken0 ? heldIn : heldOut,
        balance1: inIsToken0 ? heldOut : heldIn,
      }
    }
    const [[sqrtPrice, tick], liquidity, spacing] = await Promise.all([
      client.readContract({
        address: hop.pool,
        abi: v3PoolAbi,
        functionName: 'slot0',
        blockNumber,
      }),
      client.readContract({
        address: hop.pool,
        abi: v3PoolAbi,
        functionName: 'liquidity',
        blockNumber,
      }),
      client.readContract({
        address: hop.pool,
        abi: v3PoolAbi,
        functionName: 'tickSpacing',
        blockNumber,
      }),
    ])
    return {
      kind: 'v3',
      sqrtPrice: JSBI.BigInt(sqrtPrice.toString()),
      liquidity: JSBI.BigInt(liquidity.toString()),
      tick,
      spacing,
      ticks: new ChainTicks(network, hop.pool, blockNumber),
    }
  }
  const afterFee = (amount: bigint, token: Address) => amount - (amount * feeBps(token)) / 10_000n
  let total = 0n
  for (const leg of route) {
    let amount = BigInt(leg.hops[0]?.amountIn ?? '0')
    for (const [index, hop] of leg.hops.entries()) {
      const copy = await copyOf(hop)
      if (copy.kind === 'v2') {
        const arrived = afterFee(amount, hop.tokenIn)
        const zeroForOne = isAddressEqual(copy.token0, hop.tokenIn)
        const [reserveIn, reserveOut] = zeroForOne
          ? [copy.reserve0, copy.reserve1]
          : [copy.reserve1, copy.reserve0]
        // SwapRouter02's V2 swap prices what the pair holds above its reserve of the input, and
        // the pair's swap syncs its reserves to its balances (a surplus sent unsynced included).
        const [heldIn, heldOut] = zeroForOne
          ? [copy.balance0 + arrived, copy.balance1]
          : [copy.balance1 + arrived, copy.balance0]
        const out = constantProductOut(heldIn - reserveIn, reserveIn, reserveOut)
        const [balance0, balance1] = zeroForOne ? [heldIn, heldOut - out] : [heldOut - out, heldIn]
        copies.set(hop.pool.toLowerCase(), {
          ...copy,
          reserve0: balance0,
          reserve1: balance1,
          balance0,
          balance1,
        })
        amount = index === leg.hops.length - 1 ? afterFee(out, hop.tokenOut) : out
        continue
      }
      const zeroForOne = hop.tokenIn.toLowerCase() < hop.tokenOut.toLowerCase()
      const swapped = await v3Swap(
        JSBI.BigInt(hop.fee ?? 0),
        copy.sqrtPrice,
        copy.tick,
        copy.liquidity,
        copy.spacing,
        copy.ticks,
        zeroForOne,
        JSBI.BigInt(amount.toString()),
        undefined,
      )
      copies.set(hop.pool.toLowerCase(), {
        ...copy,
        sqrtPrice: swapped.sqrtRatioX96,
        liquidity: swapped.liquidity,
        tick: swapped.tickCurrent,
      })
      amount = -BigInt(swapped.amountCalculated.toString())
    }
    total += amount
  }
  return total
}
