import { call, getBlockNumber, getGasPrice } from 'viem/actions'
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  isAddressEqual,
  type StateOverride,
  toHex,
  zeroAddress,
} from 'viem'
import { findBalanceSlot, knownBalanceSlot } from '../chain/bestAmountOut'
import { untrustedCallGas } from '../chain/callBudget'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { otherToken, type Pool, sameToken } from '../chain/pools/pool'
import {
  bestSplit,
  type GasPriceInToken1,
  type Hop,
  type Split,
  SPLIT_PARTS,
} from '../chain/pools/searchRoutes'
import { readPools } from '../chain/readPools'
import { ROUTER_PROBE_ADDRESS, ROUTER_PROBE_RUNTIME, routerProbeAbi } from '../chain/routerProbe'
import { legsOf, type SplitLeg, swapRouterCall } from '../chain/swapRouterCall'
import { loadChainConfig, MAX_CONNECTOR_TOKENS } from '../config'
import type { NetworkName } from '../networkNames'
import { DEFAULT_DEADLINE_SECONDS } from '../constants'
import { NoRouterConfigured, Unprocessable } from '../errors'
import { estimateBeside, type GasEstimate } from '../send/gasLimit'

/**
 * Connectors beyond the base tokens the search keeps: those pooling with both ends first, then
 * with one. With the 2-3 base tokens, C <= 6 connectors: at most 3,905 paths (searchRoutes.ts),
 * far fewer where pools are missing.
 */
export const MAX_EXTRA_CONNECTORS = 3
/** Native coin priced in token1 with this much of it (0.01 of a coin of 18 decimals). */
const GAS_PRICING_WEI = 10n ** 16n

export interface BestRouteParameters {
  network: NetworkName
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  nativeIn: boolean
  nativeOut: boolean
  /** Receives the output; the zero address measures at the probe (an anonymous quote). */
  recipient: Address
  /**
   * Tokens that may connect a route besides the base tokens: the network's configured
   * `connectorTokens` unless given (the sampler gives the catalog).
   */
  connectorCandidates?: readonly Address[]
  /**
   * Candidates whose pools are read, at most (default MAX_CONNECTOR_TOKENS, the quote's
   * bound). The price sampler, off the request path, reads them all: more lens calls, still one
   * round trip, and the search still keeps MAX_EXTRA_CONNECTORS of them.
   */
  maxConnectorCandidates?: number
  /** Rank by amountOut alone (gas left out): the comparison with a reference that ignores gas. */
  ignoreGas?: boolean
  /**
   * Estimate the chosen route's router call sent from this address (to `recipient`, with a
   * minimum of 0), beside the simulations: a swap's gas without a round trip of its own.
   */
  estimateFrom?: Address
}

export interface BestRoute {
  /** What the recipient receives, simulated with the router call itself (see `simulated`). */
  amountOut: bigint
  split: Split
  /** The search's own figure for the split (equal to amountOut unless a fee was taken). */
  searchedAmountOut: bigint
  gasPrice: bigint
  gasCostToken1: bigint
  priceImpactBps: number
  blockNumber: bigint
  router: Address
  /**
   * Whether `amountOut` was measured by simulation; false for an input token whose balances the
   * simulation cannot set (no balance slot found): the search's figure on the V2 route then.
   */
  simulated: boolean
  /** With `estimateFrom`: the gas of the route's call with a minimum of 0 (limitFrom), or why not. */
  estimate?: GasEstimate
}

const pairKey = (a: Address, b: Address) => [a.toLowerCase(), b.toLowerCase()].sort().join(':')

/** The token pairs whose pools are read: the two ends and every pair among ends and connectors. */
export function pairsToRead(tokenIn: Address, tokenOut: Address, connectors: readonly Address[]) {
  const tokens: Address[] = []
  for (const token of [tokenIn, tokenOut, ...connectors]) {
    if (!tokens.some((known) => sameToken(known, token))) tokens.push(token)
  }
  const pairs: [Address, Address][] = []
  const seen = new Set<string>()
  tokens.forEach((a, i) =>
    tokens.slice(i + 1).forEach((b) => {
      const key = pairKey(a, b)
      if (!seen.has(key)) {
        seen.add(key)
        pairs.push([a, b])
      }
    }),
  )
  return pairs
}

/** The extra connectors worth searching: pooled with both ends first, then with one. */
function chooseExtraConnectors(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  candidates: readonly Address[],
): Address[] {
  const poolsWith = (token: Address, end: Address) =>
    pools.some((pool) => {
      const other = otherToken(pool, token)
      return other !== undefined && sameToken(other, end)
    })
  const scored = candidates
    .map((token) => ({
      token,
      ends: Number(poolsWith(token, tokenIn)) + Number(poolsWith(token, tokenOut)),
    }))
    .filter(({ ends }) => ends > 0)
    .sort((a, b) => b.ends - a.ends)
  return scored.slice(0, MAX_EXTRA_CONNECTORS).map(({ token }) => token)
}

/** Token1 base units per gas unit: the gas price times the native coin's price in token1. */
function gasPriceInToken1(
  pools: readonly Pool[],
  wrappedNative: Address,
  tokenOut: Address,
  connectors: readonly Address[],
  gasPrice: bigint,
): GasPriceInToken1 {
  if (sameToken(wrappedNative, tokenOut)) return { numerator: gasPrice, denominator: 1n }
  const priced = bestSplit({
    pools,
    tokenIn: wrappedNative,
    tokenOut,
    connectors,
    amountIn: GAS_PRICING_WEI,
    gasPrice: { numerator: 0n, denominator: 1n },
    // A price, not a trade: the best single route says it (no split search).
    maxRoutes: 1,
  })
  // No way to price the coin in token1: gas left out of the ranking (outputs alone decide).
  if (!priced) return { numerator: 0n, denominator: 1n }
  return { numerator: gasPrice * priced.amountOut, denominator: GAS_PRICING_WEI }
}

/** Price impact: what the split pays against its routes' marginal prices, in basis points. */
function priceImpactBps(split: Split, pools: readonly Pool[]): number {
  let spotOut = 0n
  for (const route of split.routes) {
    const probe = route.amountIn / 1_000_000n > 0n ? route.amountIn / 1_000_000n : 1n
    const small = bestSplit({
      pools: pools.filter((pool) => route.hops.some((hop) => hop.pool.address === pool.address)),
      tokenIn: route.hops[0]?.tokenIn ?? zeroAddress,
      tokenOut: route.hops[route.hops.length - 1]?.tokenOut ?? zeroAddress,
      connectors: route.hops.slice(1).map((hop) => hop.tokenIn),
      amountIn: probe * BigInt(SPLIT_PARTS),
      gasPrice: { numerator: 0n, denominator: 1n },
      maxRoutes: 1,
    })
    if (!small) return 0
    spotOut += (small.amountOut * route.amountIn) / (probe * BigInt(SPLIT_PARTS))
  }
  if (spotOut === 0n || split.amountOut >= spotOut) return 0
  return Number(((spotOut - split.amountOut) * 10_000n) / spotOut)
}

/** A single route over V2 pools only: what a fee-on-transfer token can take (see bestRoute). */
const isSingleV2Route = (split: Split) =>
  split.routes.length === 1 && split.routes.every((route) => isV2Only(route.hops))
const isV2Only = (hops: readonly Hop[]) => hops.every((hop) => hop.pool.protocol === 'v2')
/** Every hop priced on state that was read, so the simulation must equal it unless a fee. */
const exactSearch = (split: Split) => split.routes.every((route) => route.exact)

/**
 * The best split of `amountIn` over V2 and V3 pools (DECISIONS §8.1), in two round trips when
 * warm: (1) every pool among the ends, base tokens and connector candidates read by PoolLens,
 * with the gas price and block number, in one batch; the search runs locally on that state;
 * (2) the chosen split's router call simulated by RouterProbe from a holder of exactly
 * `amountIn`, so `amountOut` is what the recipient receives, ticks and transfer fees included.
 * The first time a container meets an input token, one round trip more finds its balance slot.
 *
 * Fee-on-transfer tokens: a V3 pool refuses them (it checks what it received) and a split's
 * minimum is checked at the router, before the last transfer's fee. So beside the best split,
 * when it is not already one, the best single V2 route is simulated in the same batch; where the
 * split's simulation reverts or pays less than the search (a fee was taken), the V2 route is
 * the answer: SwapRouter02's V2 swap pays what arrived, and checks the minimum at the recipient.
 */
export async function bestRoute(parameters: BestRouteParameters): Promise<BestRoute> {
  const { network, tokenIn, tokenOut, amountIn, nativeIn, nativeOut, recipient } = parameters
  const config = loadChainConfig(network)
  const router = config.swapRouter
  if (!router) throw new NoRouterConfigured(network)
  const candidates = (parameters.connectorCandidates ?? config.connectorTokens)
    .filter((token) => !config.baseTokens.some((base) => sameToken(base, token)))
    .slice(0, parameters.maxConnectorCandidates ?? MAX_CONNECTOR_TOKENS)
  const client = publicClient(network)
  const slotKnown = nativeIn ? null : knownBalanceSlot(network, tokenIn)
  const [pools, gasPrice, blockNumber, balanceSlot] = await Promise.all([
    readPools({
      network,
      pairs: pairsToRead(tokenIn, tokenOut, [...config.baseTokens, ...candidates]),
    }),
    onChain(network, () => getGasPrice(client)),
    onChain(network, () => getBlockNumber(client, { cacheTime: 0 })),
    slotKnown !== undefined ? slotKnown : findBalanceSlot(network, tokenIn),
  ])
  const connectors = [
    ...config.baseTokens,
    ...chooseExtraConnectors(pools, tokenIn, tokenOut, candidates),
  ]
  const gasPriceToken1 = parameters.ignoreGas
    ? { numerator: 0n, denominator: 1n }
    : gasPriceInToken1(pools, config.wrappedNative, tokenOut, connectors, gasPrice)
  const search = { tokenIn, tokenOut, connectors, amountIn, gasPrice: gasPriceToken1 }
  const best = bestSplit({ pools, ...search })
  if (!best) throw new Unprocessable(`no liquidity path between these tokens on ${network}`)
  const v2Route = isSingleV2Route(best)
    ? best
    : bestSplit({ pools: pools.filter((pool) => pool.protocol === 'v2'), ...search, maxRoutes: 1 })
  const answer = (
    split: Split,
    amountOut: bigint,
    simulated: boolean,
    estimate?: GasEstimate,
  ): BestRoute => ({
    amountOut,
    split,
    searchedAmountOut: split.amountOut,
    gasPrice,
    gasCostToken1: split.gasCostToken1,
    priceImpactBps: priceImpactBps(split, pools),
    blockNumber,
    router,
    simulated,
    ...(estimate && { estimate }),
  })
  // Balances the simulation cannot set: the search's figure, on the route any token can take.
  if (!nativeIn && balanceSlot === null) {
    const route = v2Route ?? best
    return answer(route, route.amountOut, false)
  }
  const to = isAddressEqual(recipient, zeroAddress) ? ROUTER_PROBE_ADDRESS : recipient
  const simulate = (split: Split) =>
    simulateSplit({
      network,
      router,
      legs: legsOf(split),
      tokenIn,
      tokenOut,
      amountIn,
      nativeIn,
      nativeOut,
      to,
      balanceSlot,
      blockNumber,
    })
  const { estimateFrom } = parameters
  const estimate = (split: Split) => {
    if (!estimateFrom) return undefined
    const call = swapRouterCall({
      legs: legsOf(split),
      amountOutMin: 0n,
      recipient: to,
      deadline: BigInt(Math.floor(Date.now() / 1000) + DEFAULT_DEADLINE_SECONDS),
      nativeIn,
      nativeOut,
    })
    return estimateBeside({ network, action: 'swap', from: estimateFrom, to: router, ...call })
  }
  const other = v2Route && v2Route !== best ? v2Route : undefined
  const [bestOut, otherOut, bestEstimate, otherEstimate] = await Promise.all([
    simulate(best),
    other && simulate(other),
    estimate(best),
    other && estimate(other),
  ])
  if (bestOut !== undefined && (bestOut >= best.amountOut || !exactSearch(best))) {
    return answer(best, bestOut, true, bestEstimate)
  }
  if (other && otherOut !== undefined) return answer(other, otherOut, true, otherEstimate)
  if (bestOut !== undefined) return answer(best, bestOut, true, bestEstimate)
  throw new Unprocessable(`every route between these tokens on ${network} reverted when simulated`)
}

interface SimulateSplitParameters {
  network: NetworkName
  router: Address
  legs: SplitLeg[]
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  nativeIn: boolean
  nativeOut: boolean
  to: Address
  balanceSlot: `0x${string}` | null
  blockNumber: bigint
}

/**
 * What `to` receives when the router runs the split's call (one eth_call, gas capped); undefined
 * when the call reverts or runs out of its gas (a route this token cannot take).
 */
async function simulateSplit(parameters: SimulateSplitParameters): Promise<bigint | undefined> {
  const { network, router, legs, tokenIn, tokenOut, amountIn, nativeIn, nativeOut, to } = parameters
  const routerCall = swapRouterCall({
    legs,
    amountOutMin: 0n,
    recipient: to,
    // The simulated block's clock is the node's; a day ahead never expires inside the call.
    deadline: BigInt(Math.floor(Date.now() / 1000) + 86_400),
    nativeIn,
    nativeOut,
  })
  const stateOverride: StateOverride = [
    {
      address: ROUTER_PROBE_ADDRESS,
      code: ROUTER_PROBE_RUNTIME,
      balance: nativeIn ? amountIn : 0n,
    },
    ...(parameters.balanceSlot === null
      ? []
      : [
          {
            address: tokenIn,
            stateDiff: [{ slot: parameters.balanceSlot, value: toHex(amountIn, { size: 32 }) }],
          },
        ]),
  ]
  const gas = untrustedCallGas()
  const simulated = onChain(network, () =>
    call(publicClient(network), {
      to: ROUTER_PROBE_ADDRESS,
      data: encodeFunctionData({
        abi: routerProbeAbi,
        functionName: 'simulate',
        args: [router, tokenIn, amountIn, nativeIn, tokenOut, nativeOut, to, routerCall.data],
      }),
      stateOverride,
      gas,
      blockNumber: parameters.blockNumber,
    }),
  )
  try {
    const { data } = await simulated
    return decodeFunctionResult({
      abi: routerProbeAbi,
      functionName: 'simulate',
      data: data ?? '0x',
    })
  } catch (error) {
    if (error instanceof Unprocessable) return undefined
    throw error
  }
}
