import { getBlockNumber, getGasPrice } from 'viem/actions'
import { type Address, type Hex, isAddressEqual, zeroAddress } from 'viem'
import { findBalanceSlot, knownBalanceSlot } from '../chain/balanceSlot'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { type Pool, quotePool, sameToken } from '../chain/pools/pool'
import { pageTicks, readPools } from '../chain/readPools'
import { ROUTER_PROBE_ADDRESS } from '../chain/routerProbe'
import { legsOf, segmentsOf, swapRouterCall } from '../chain/swapRouterCall'
import { type ChainConfig, loadChainConfig, MAX_CONNECTOR_TOKENS } from '../config'
import { DEFAULT_DEADLINE_SECONDS } from '../constants'
import { NoRouterConfigured, Unprocessable } from '../errors'
import type { NetworkName } from '../networkNames'
import { estimateBeside, type GasEstimate } from '../send/gasLimit'
import {
  GAS_PRICING_AMOUNT,
  gasCost,
  gasPriceInToken1,
  type GasPriceInToken1,
  type GasShape,
  NO_GAS_PRICE,
  shapeGas,
  transactionShape,
} from './gasModel'
import { recipientIsFresh } from './freshRecipient'
import { pairsToRead } from './marketPairs'
import type { Hop } from './paths'
import { priceImpactBps } from './priceImpact'
import type { PricedSplit } from './priceSplit'
import { searchSplit } from './searchSplit'
import { type SimulatedSplit, simulateSplit, swapCallOutput } from './simulateSplit'

/** Rounds of paging at most: each reads on the pools a chosen split ran to the edge of. */
export const MAX_PAGE_ROUNDS = 2

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
   * round trip.
   */
  maxConnectorCandidates?: number
  /** Rank by amountOut alone (gas left out): a price rather than a trade. */
  ignoreGas?: boolean
  /**
   * Estimate the chosen route's router call sent from this address (to `recipient`, with a
   * minimum of 0), beside the simulations: a swap's gas without a round trip of its own.
   */
  estimateFrom?: Address
  /**
   * Awaited once the first batch of reads is back, before any further call (tick pages,
   * simulations): a swap's balance check, read in that same batch, so a swap the wallet cannot
   * pay fails after one round trip, not after the simulations (issue 39).
   */
  beforeMoreCalls?: Promise<unknown>
  /**
   * Simulate through the network's router (the default; a quote needs it: NoRouterConfigured
   * without one). False: the pools' own math alone, e.g. a price on a network without a router.
   */
  simulate?: boolean
}

/** One hop of the answer: the pool and what went in and came out, as simulated. */
export interface AnsweredHop extends Hop {
  amountIn: bigint
  amountOut: bigint
}

/** One route of the answer's split, in the order the router runs them. */
export interface AnsweredRoute {
  amountIn: bigint
  /** Its share of the input in basis points (the shares sum to 10,000). */
  shareBps: number
  hops: AnsweredHop[]
}

export interface BestRoute {
  /** What the recipient receives, simulated with the router call itself (see `simulated`). */
  amountOut: bigint
  /**
   * The split as the router runs it; each hop's figures are the simulation's (each swap call's
   * own output; hops inside one V2 call by the pairs' math from the call's input), the routes'
   * last hops summing to `amountOut`.
   */
  routes: AnsweredRoute[]
  /** The exact local figure of the split (equal to amountOut unless a transfer fee was taken). */
  searchedAmountOut: bigint
  /** Gas units of the whole transaction, by the network's gas model (`shape` times its units). */
  gas: bigint
  /** What the gas model counted: hops, calls, ticks crossed and the transaction's ends. */
  gasShape: GasShape
  gasPrice: bigint
  gasCostToken1: bigint
  priceImpactBps: number
  blockNumber: bigint
  /** The router the split is for (undefined only where nothing was to be simulated). */
  router: Address
  /**
   * Whether `amountOut` was measured by simulation; false for an input token whose balances the
   * simulation cannot set (no balance slot found), or with `simulate: false`: the pools' math.
   */
  simulated: boolean
  /** With `estimateFrom`: the gas of the route's call with a minimum of 0 (limitFrom), or why not. */
  estimate?: GasEstimate
  /**
   * The split's legs each pay the recipient, with a minimum each (swapRouterCall's
   * `legsPayRecipient`), rather than the router sweeping the whole: chosen only where that paid
   * more when simulated, i.e. the output token takes a fee on each transfer.
   */
  legsPayRecipient: boolean
}

/**
 * Tokens this container has seen take no transfer fee: a simulation through them paid exactly
 * the pools' figure. Others may be fee-on-transfer, so a plan that keeps them on V2 hops is
 * simulated beside (DECISIONS §9.3). Bounded, started over when full.
 */
const plainTokens = new Set<string>()
const PLAIN_TOKENS_KEPT = 1000
/**
 * Base units the amount in and what arrived must both reach for an exact simulation to prove the
 * ends plain: a fee of 1 bps then takes at least 10 units off a transfer, which the pools' figure
 * would show. Smaller, a fee can round away (3 % of 30 units is 0), and a token seen "plain" on a
 * dust quote would lose its fee-safe plans, and a split into it its legs paying the recipient,
 * on every later quote.
 */
const PLAIN_EVIDENCE_UNITS = 10n ** 5n

/**
 * The best split of `amountIn` over the network's V2 and V3 pools (DECISIONS §8.1, §9.3), in two
 * round trips when warm: (1) every pool among the ends, base tokens and connector candidates read
 * by PoolLens, with the gas price and block number, in one batch; the search runs locally on
 * that state (searchSplit); where the split it chose runs a V3 pool to the edge of the ticks
 * read, those pools are read on (pageTicks, a round trip each, at most MAX_PAGE_ROUNDS) and the
 * search runs again; (2) the split's router call simulated by RouterProbe from a holder of
 * exactly `amountIn`, so `amountOut` is what the recipient receives. The first time a container
 * meets an input token, one round trip more finds its balance slot.
 *
 * Never silently worse: where an end token may take a fee on transfer (not seen plain yet), the
 * best split keeping the hops that move it on V2 (SwapRouter02's V2 hop pays what arrived), and
 * that as a single route, are simulated in the same batch; where it is the output, each split
 * whose legs end on V2 is simulated too with its legs paying the recipient (one transfer of the
 * output, not two through the router's sweep); the answer is the best simulated net of gas (the
 * router's sweep on a tie), its legs carrying the simulated amounts, its impact from the
 * simulated amount.
 */
export async function bestRoute(parameters: BestRouteParameters): Promise<BestRoute> {
  const { network, tokenIn, tokenOut, amountIn, nativeIn, nativeOut, recipient } = parameters
  const config = loadChainConfig(network)
  const simulate = parameters.simulate ?? true
  const router = config.swapRouter
  if (simulate && !router) throw new NoRouterConfigured(network)
  const candidates = (parameters.connectorCandidates ?? config.connectorTokens)
    .filter((token) => !config.baseTokens.some((base) => sameToken(base, token)))
    .slice(0, parameters.maxConnectorCandidates ?? MAX_CONNECTOR_TOKENS)
  const through = [...config.baseTokens, ...candidates]
  const client = publicClient(network)
  const slotKnown = !simulate || nativeIn ? null : knownBalanceSlot(network, tokenIn)
  const [read, gasPriceWei, blockNumber, balanceSlot, freshRecipient] = await Promise.all([
    readPools({ network, pairs: pairsToRead(tokenIn, tokenOut, through) }),
    onChain(network, () => getGasPrice(client)),
    onChain(network, () => getBlockNumber(client, { cacheTime: 0 })),
    slotKnown !== undefined ? slotKnown : findBalanceSlot(network, tokenIn),
    // Writing a balance from zero costs 17,100 gas more (a tenth of a swap): a known recipient's
    // is read beside the pools (DECISIONS §10.2); an anonymous quote assumes one that holds it.
    recipientIsFresh({
      network,
      recipient,
      token: tokenOut,
      native: nativeOut,
      ignoreGas: parameters.ignoreGas,
    }),
  ])
  await parameters.beforeMoreCalls
  let pools = read
  // The gas price in token1 is the same for every plan on the same pools: worked out once each.
  let gasPriceOn: { pools: readonly Pool[]; gasPrice: GasPriceInToken1 } | undefined
  const gasPriceInTokenOut = () => {
    if (gasPriceOn?.pools !== pools) {
      gasPriceOn = {
        pools,
        gasPrice: parameters.ignoreGas
          ? NO_GAS_PRICE
          : coinPriceInToken1(pools, config, through, tokenOut, gasPriceWei),
      }
    }
    return gasPriceOn.gasPrice
  }
  const plan = (allowHop?: (hop: Hop) => boolean, maxRoutes?: number) => {
    const gasPrice = gasPriceInTokenOut()
    const split = searchSplit({
      pools,
      tokenIn,
      tokenOut,
      through,
      amountIn,
      units: config.gasUnits,
      gasPrice,
      ...(allowHop && { allowHop }),
      ...(maxRoutes && { maxRoutes }),
    })
    return split && { split, gasPrice }
  }
  let best = plan()
  for (let round = 0; best && !best.split.exact && round < MAX_PAGE_ROUNDS; round += 1) {
    const edges = best.split.routes.flatMap((route) =>
      route.hops.flatMap((hop) =>
        !hop.exact && hop.pool.protocol === 'v3'
          ? [{ pool: hop.pool, up: !sameToken(hop.pool.token0, hop.tokenIn) }]
          : [],
      ),
    )
    const paged = await pageTicks({ network, pages: edges, blockNumber })
    const byAddress = new Map(paged.map((pool) => [pool.address.toLowerCase(), pool]))
    pools = pools.map((pool) => byAddress.get(pool.address.toLowerCase()) ?? pool)
    best = plan()
  }
  if (!best) throw new Unprocessable(`no liquidity path between these tokens on ${network}`)

  // Hops that move a token not yet seen plain stay on V2 in the fee-safe plans.
  const wrapped = config.wrappedNative
  const unsure = [tokenIn, tokenOut].filter(
    (token) => !sameToken(token, wrapped) && !plainTokens.has(`${network}:${token.toLowerCase()}`),
  )
  const feeSafe = (hop: Hop) =>
    hop.pool.protocol === 'v2' ||
    !unsure.some((token) => sameToken(token, hop.tokenIn) || sameToken(token, hop.tokenOut))
  const plans: Array<typeof best & { legsPayRecipient: boolean }> = [
    { ...best, legsPayRecipient: false },
  ]
  if (unsure.length > 0 && !best.split.routes.every((route) => route.hops.every(feeSafe))) {
    const safe = plan(feeSafe)
    if (safe) plans.push({ ...safe, legsPayRecipient: false })
    if (safe && safe.split.routes.length > 1) {
      const single = plan(feeSafe, 1)
      if (single) plans.push({ ...single, legsPayRecipient: false })
    }
  }
  // An output that may take a fee on transfer: each split also with its legs paying the
  // recipient, where every leg's last hop is V2 (its minimum then checks what arrived). After the
  // others, so a tie (a plain token) keeps the router's sweep.
  if (!nativeOut && unsure.some((token) => sameToken(token, tokenOut))) {
    const direct = plans.filter(
      (candidate) =>
        candidate.split.routes.length > 1 &&
        candidate.split.routes.every((route) => route.hops.at(-1)?.pool.protocol === 'v2'),
    )
    plans.push(...direct.map((candidate) => ({ ...candidate, legsPayRecipient: true })))
  }
  const shapeOf = (chosen: (typeof plans)[number], simulated?: SimulatedSplit) =>
    transactionShape(
      chosen.split.routes.map((route) =>
        route.hops.map((hop) => ({
          protocol: hop.pool.protocol,
          ticksCrossed: hop.ticksCrossed,
          wordsCrossed: hop.wordsCrossed,
          tokenIn: hop.tokenIn,
          tokenOut: hop.tokenOut,
        })),
      ),
      {
        nativeIn,
        nativeOut,
        legsPayRecipient: chosen.legsPayRecipient,
        feeOnTransferHops: feeOnTransferHops(chosen, unsure, simulated),
        freshRecipient,
      },
    )
  const answer = (
    chosen: (typeof plans)[number],
    simulated?: SimulatedSplit,
    estimate?: GasEstimate,
  ): BestRoute => {
    const routes = answeredRoutes(chosen.split, simulated)
    const amountOut = simulated?.received ?? chosen.split.amountOut
    const gasShape = shapeOf(chosen, simulated)
    const gas = shapeGas(gasShape, config.gasUnits)
    return {
      amountOut,
      routes,
      searchedAmountOut: chosen.split.amountOut,
      gas,
      gasShape,
      gasPrice: gasPriceWei,
      gasCostToken1: gasCost(gas, chosen.gasPrice),
      priceImpactBps: priceImpactBps(routes, amountOut),
      blockNumber,
      router: router ?? zeroAddress,
      simulated: simulated !== undefined,
      ...(estimate && { estimate }),
      legsPayRecipient: chosen.legsPayRecipient,
    }
  }
  // Nothing to simulate with: the pools' math, on the plan any token can take where balances
  // cannot be set (the fee-safe one), else the best.
  if (!simulate || !router || (!nativeIn && balanceSlot === null)) {
    const feeSafePlan = plans.find((candidate, index) => index > 0 && !candidate.legsPayRecipient)
    return answer((simulate && feeSafePlan) || { ...best, legsPayRecipient: false })
  }
  const to = isAddressEqual(recipient, zeroAddress) ? ROUTER_PROBE_ADDRESS : recipient
  const { estimateFrom } = parameters
  const outcomes = await Promise.all(
    plans.map((candidate) =>
      Promise.all([
        simulateSplit({
          network,
          router,
          legs: legsOf(candidate.split),
          tokenIn,
          tokenOut,
          amountIn,
          nativeIn,
          nativeOut,
          to,
          balanceSlot,
          blockNumber,
          expectedGas: candidate.split.gas,
          legsPayRecipient: candidate.legsPayRecipient,
        }),
        estimateFrom &&
          estimateBeside({
            network,
            action: 'swap',
            from: estimateFrom,
            to: router,
            ...swapRouterCall({
              legs: legsOf(candidate.split),
              amountOutMin: 0n,
              recipient: to,
              deadline: BigInt(Math.floor(Date.now() / 1000) + DEFAULT_DEADLINE_SECONDS),
              nativeIn,
              nativeOut,
              legsPayRecipient: candidate.legsPayRecipient,
            }),
          }),
      ]),
    ),
  )
  // The best simulated, net of gas by the model.
  let chosen: { index: number; net: bigint } | undefined
  outcomes.forEach(([simulated], index) => {
    const candidate = plans[index]
    if (!simulated || !candidate) return
    const gas = shapeGas(shapeOf(candidate, simulated), config.gasUnits)
    const net = simulated.received - gasCost(gas, candidate.gasPrice)
    if (!chosen || net > chosen.net) chosen = { index, net }
  })
  const [simulatedBest] = outcomes[0] ?? []
  if (
    simulatedBest &&
    simulatedBest.received === best.split.amountOut &&
    best.split.exact &&
    amountIn >= PLAIN_EVIDENCE_UNITS &&
    simulatedBest.received >= PLAIN_EVIDENCE_UNITS
  ) {
    // The pools paid what their math said, through both ends: neither takes a transfer fee.
    if (plainTokens.size >= PLAIN_TOKENS_KEPT) plainTokens.clear()
    for (const token of unsure) plainTokens.add(`${network}:${token.toLowerCase()}`)
  }
  const winner = chosen && plans[chosen.index]
  const outcome = chosen && outcomes[chosen.index]
  if (!winner || !outcome?.[0]) {
    throw new Unprocessable(
      `every route between these tokens on ${network} reverted when simulated`,
    )
  }
  return answer(winner, outcome[0], outcome[1] || undefined)
}

/**
 * Hops that move a token taking a fee on transfer, each paying the fee's own writes: where the
 * simulation paid less than the pools' math (a fee was taken), the hops moving an end token not
 * seen plain, and the router's sweep when the output is one of them. Without a simulation, none.
 */
function feeOnTransferHops(
  candidate: { split: PricedSplit; legsPayRecipient: boolean },
  unsure: readonly Address[],
  simulated?: SimulatedSplit,
): number {
  if (!simulated || simulated.received >= candidate.split.amountOut) return 0
  const moves = (hop: Hop) =>
    unsure.some((token) => sameToken(token, hop.tokenIn) || sameToken(token, hop.tokenOut))
  const hops = candidate.split.routes.reduce(
    (count, route) => count + route.hops.filter(moves).length,
    0,
  )
  const lastOut = candidate.split.routes[0]?.hops.at(-1)?.tokenOut
  const swept =
    candidate.split.routes.length > 1 &&
    !candidate.legsPayRecipient &&
    lastOut !== undefined &&
    unsure.some((token) => sameToken(token, lastOut))
  return hops + (swept ? 1 : 0)
}

/**
 * Token1 per gas unit: the gas price times what GAS_PRICING_AMOUNT of the wrapped coin pays in
 * token1 on its best single route, ranked by output (gasModel.ts's convention); nothing where
 * no route prices it (gas then left out of the ranking).
 */
function coinPriceInToken1(
  pools: readonly Pool[],
  config: ChainConfig,
  through: readonly Address[],
  tokenOut: Address,
  gasPriceWei: bigint,
): GasPriceInToken1 {
  if (sameToken(config.wrappedNative, tokenOut)) {
    return gasPriceInToken1(gasPriceWei, GAS_PRICING_AMOUNT)
  }
  const priced = searchSplit({
    pools,
    tokenIn: config.wrappedNative,
    tokenOut,
    through,
    amountIn: GAS_PRICING_AMOUNT,
    units: config.gasUnits,
    gasPrice: NO_GAS_PRICE,
    maxRoutes: 1,
  })
  return priced ? gasPriceInToken1(gasPriceWei, priced.amountOut) : NO_GAS_PRICE
}

/**
 * The routes of the answer: with a simulation, each router call's output from its result (a hop
 * inside a V2 call by the pair's math on the simulated input), each route's last hop scaled so
 * the routes sum to what arrived (a fee on the last transfer, the router's dust swept along);
 * without one, the exact local figures. Shares in basis points, summing to 10,000.
 */
function answeredRoutes(split: PricedSplit, simulated?: SimulatedSplit): AnsweredRoute[] {
  let call = 0
  const routes = split.routes.map((route) => {
    const hops: AnsweredHop[] = []
    let amount = route.amountIn
    for (const segment of segmentsOf(
      route.hops.map((hop) => ({
        protocol: hop.pool.protocol,
        fee: hop.pool.protocol === 'v3' ? hop.pool.state.fee : 0,
        tokenIn: hop.tokenIn,
        tokenOut: hop.tokenOut,
      })),
    )) {
      const result: Hex | undefined = simulated?.results[call]
      call += 1
      const last = route.hops[segment.first + segment.hops.length - 1]
      const callOut = simulated ? (swapCallOutput(result) ?? 0n) : (last?.amountOut ?? 0n)
      segment.hops.forEach((_, offset) => {
        const hop = route.hops[segment.first + offset]
        if (!hop) return
        const isLast = offset === segment.hops.length - 1
        const amountOut = isLast
          ? callOut
          : simulated && amount !== hop.amountIn
            ? quotePool(hop.before, hop.tokenIn, amount).amountOut
            : hop.amountOut
        hops.push({
          pool: hop.pool,
          tokenIn: hop.tokenIn,
          tokenOut: hop.tokenOut,
          amountIn: amount,
          amountOut,
        })
        amount = amountOut
      })
    }
    return { amountIn: route.amountIn, hops }
  })
  if (simulated) scaleLastHops(routes, simulated.received)
  const shares = sharesBps(routes.map((route) => route.amountIn))
  return routes.map((route, index) => ({ ...route, shareBps: shares[index] ?? 0 }))
}

/** Each route's last hop set to its share of `received`, by what the routes' pools paid. */
function scaleLastHops(routes: { hops: AnsweredHop[] }[], received: bigint): void {
  const paid = routes.map((route) => route.hops[route.hops.length - 1]?.amountOut ?? 0n)
  const total = paid.reduce((sum, amount) => sum + amount, 0n)
  if (total === received || total === 0n) return
  const scaled = paid.map((amount) => (amount * received) / total)
  scaled[0] = (scaled[0] ?? 0n) + received - scaled.reduce((sum, amount) => sum + amount, 0n)
  routes.forEach((route, index) => {
    const last = route.hops[route.hops.length - 1]
    if (last) last.amountOut = scaled[index] ?? 0n
  })
}

/** Basis points of the whole for each amount, by largest remainder, each at least 1. */
function sharesBps(amounts: readonly bigint[]): number[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0n)
  if (total === 0n) return amounts.map(() => 0)
  const floors = amounts.map((amount) => (amount * 10_000n) / total)
  const shares = floors.map((floor) => Number(floor))
  let left = 10_000 - shares.reduce((sum, share) => sum + share, 0)
  const byRemainder = amounts
    .map((amount, index) => ({ index, remainder: (amount * 10_000n) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? 0 : a.remainder > b.remainder ? -1 : 1))
  for (const { index } of byRemainder) {
    if (left <= 0) break
    shares[index] = (shares[index] ?? 0) + 1
    left -= 1
  }
  // A route too small for a basis point still shows one, taken from the largest.
  shares.forEach((share, index) => {
    if (share > 0) return
    const largest = shares.indexOf(Math.max(...shares))
    shares[largest] = (shares[largest] ?? 0) - 1
    shares[index] = 1
  })
  return shares
}
