import { type Address, isAddressEqual, maxUint256, zeroAddress } from 'viem'
import { ROUTER_PROBE_ADDRESS } from '../../chain/routerProbe'
import { legsOf } from '../../chain/swapRouterCall'
import { swapRouterCallExactOut } from '../../chain/swapRouterCallExactOut'
import { Unprocessable } from '../../errors'
import { gasCost, type GasPriceInToken1, type GasShape, shapeGas } from '../gas/gasModel'
import { transactionShape } from '../gas/gasModel'
import { sameToken } from '../pools/pool'
import { pageTicks } from '../providers/readPools'
import type { PricedSplitExactOut } from '../search/priceSplitExactOut'
import { searchSplitExactOut } from '../search/searchSplitExactOut'
import { probeRouterCall, swapCallOutput } from '../simulate/simulateSplit'
import { answeredRoutes } from './answeredRoutes'
import type { BestRoute } from './bestRoute'
import { unsureTokens } from './feeSafePlans'
import { gasPriceInTokenOut } from './gasPriceInTokenOut'
import { priceImpactBps } from './priceImpact'
import { type Market, readMarket, type ReadMarketParameters } from './readMarket'
import { MAX_PAGE_ROUNDS } from './routePlanner'

export interface BestRouteExactOutParameters extends ReadMarketParameters {
  /** What must arrive, in base units of tokenOut. */
  amountOut: bigint
  /** Awaited once the first batch of reads is back, before any further call (as bestRoute's). */
  beforeMoreCalls?: Promise<unknown>
}

/**
 * An exact-output route: bestRoute's answer, `amountOut` what arrives: the amount asked, or on
 * V2 legs a little more (priceSplitExactOut's payForward).
 */
export interface BestRouteExactOut extends BestRoute {
  /** The amount asked for: the least that arrives. */
  amountWanted: bigint
  /** Each route's share of it, in the order of `routes` (its exact-output call's amountOut). */
  legsWanted: bigint[]
  /** What the split takes of tokenIn, exact (the simulation's where it ran). */
  amountIn: bigint
  exactOut: true
}

type GasPrices = { token0: GasPriceInToken1; token1: GasPriceInToken1 }

/**
 * The split of exactly `amountOut` over the network's V2 and V3 pools that takes least input plus
 * gas in token0 (DECISIONS §10.1): the market read as bestRoute reads it, the exact-output search
 * (searchSplitExactOut) run on it, paged on where it ran a V3 pool to the edge of the ticks read,
 * then its router call (exact-output calls, each leg's maximum its exact input) simulated by
 * RouterProbe from a holder of exactly that input: the call must deliver the amount, else the
 * path moves a token that takes a fee on transfer (422). More than the pools can pay is a 422.
 */
export async function bestRouteExactOut(
  parameters: BestRouteExactOutParameters,
): Promise<BestRouteExactOut> {
  const { network, tokenOut, amountOut, nativeOut } = parameters
  const market = await readMarket(parameters)
  await parameters.beforeMoreCalls
  const { split, gasPrices } = await searchPaged(market, parameters)
  if (!split) throw new Unprocessable(`no liquidity path between these tokens on ${network}`)
  if (!split.complete) {
    throw new Unprocessable(
      `the pools on ${network} cannot deliver ${amountOut} base units of ${tokenOut}: more than the routes between these tokens can pay (ask for less)`,
    )
  }
  const gasShape = exactOutShape(split, parameters, market.freshRecipient)
  const gas = shapeGas(gasShape, market.config.gasUnits)
  const canSimulate =
    market.simulate &&
    market.router !== undefined &&
    (parameters.nativeIn || market.balanceSlot !== null)
  const unsureOut = unsureTokens(network, market.config.wrappedNative, [tokenOut])
  if (!canSimulate && market.simulate && unsureOut.length > 0) {
    // Nothing checks that the amount arrives (a fee on transfer would take part of it).
    throw new Unprocessable(
      `no exact-output quote between these tokens on ${network}: the input token's balances cannot be simulated, so nothing checks that the output token takes no fee on transfer (quote type=exactIn instead)`,
    )
  }
  const simulated = canSimulate
    ? await simulateExactOut(market, parameters, split, gas)
    : { amountIn: split.amountIn, received: split.amountOut }
  const routes = answeredRoutes(split)
  return {
    amountOut: simulated.received,
    amountWanted: amountOut,
    legsWanted: split.routes.map((route) => route.amountWanted),
    amountIn: simulated.amountIn,
    exactOut: true,
    routes,
    searchedAmountOut: split.amountOut,
    gas,
    gasShape,
    gasPrice: market.gasPriceWei,
    gasCostToken1: gasCost(gas, gasPrices.token1),
    priceImpactBps: priceImpactBps(routes, simulated.received),
    blockNumber: market.blockNumber,
    router: market.router ?? zeroAddress,
    simulated: canSimulate,
    legsPayRecipient: !nativeOut,
  }
}

/**
 * The exact-output search on the market's pools, the V3 pools it ran to the edge of the ticks read
 * read on (pageTicks, at most MAX_PAGE_ROUNDS) and the search run again.
 */
async function searchPaged(
  market: Market,
  parameters: BestRouteExactOutParameters,
): Promise<{ split: PricedSplitExactOut | undefined; gasPrices: GasPrices }> {
  const { network, tokenIn, tokenOut, amountOut, ignoreGas } = parameters
  const { config, through, gasPriceWei, blockNumber } = market
  let pools = market.pools
  const search = () => {
    const gasPrices: GasPrices = {
      token0: ignoreGas
        ? zeroPrice
        : gasPriceInTokenOut(pools, config, through, tokenIn, gasPriceWei),
      token1: ignoreGas
        ? zeroPrice
        : gasPriceInTokenOut(pools, config, through, tokenOut, gasPriceWei),
    }
    const units = config.gasUnits
    const split = searchSplitExactOut({
      pools,
      tokenIn,
      tokenOut,
      through,
      amountOut,
      units,
      gasPrices,
    })
    return { split, gasPrices }
  }
  let found = search()
  for (let round = 0; found.split && !found.split.exact && round < MAX_PAGE_ROUNDS; round += 1) {
    const edges = found.split.routes.flatMap((route) =>
      route.hops.flatMap((hop) =>
        !hop.exact && hop.pool.protocol === 'v3'
          ? [{ pool: hop.pool, up: !sameToken(hop.pool.token0, hop.tokenIn) }]
          : [],
      ),
    )
    const paged = await pageTicks({ network, pages: edges, blockNumber })
    const byAddress = new Map(paged.map((pool) => [pool.address.toLowerCase(), pool]))
    pools = pools.map((pool) => byAddress.get(pool.address.toLowerCase()) ?? pool)
    found = search()
  }
  return found
}

const zeroPrice: GasPriceInToken1 = { numerator: 0n, denominator: 1n }

/** The transaction's shape: one router call a leg, the legs paying the recipient (or the unwrap). */
function exactOutShape(
  split: PricedSplitExactOut,
  ends: { nativeIn: boolean; nativeOut: boolean },
  freshRecipient: boolean,
): GasShape {
  return transactionShape(
    split.routes.map((route) =>
      route.hops.map((hop) => ({
        protocol: hop.pool.protocol,
        ticksCrossed: hop.ticksCrossed,
        wordsCrossed: hop.wordsCrossed,
        tokenIn: hop.tokenIn,
        tokenOut: hop.tokenOut,
      })),
    ),
    {
      nativeIn: ends.nativeIn,
      nativeOut: ends.nativeOut,
      legsPayRecipient: !ends.nativeOut,
      feeOnTransferHops: 0,
      freshRecipient,
    },
  )
}

/**
 * The split's exact-output call run by RouterProbe from a holder of exactly its input, each leg's
 * maximum its own input: what the legs took (the calls' results). It must deliver `amountOut` to
 * the unit; a call that reverts or delivers less moves a token taking a transfer fee (422), since
 * the pools' own math is the contract's.
 */
async function simulateExactOut(
  market: Market,
  parameters: BestRouteExactOutParameters,
  split: PricedSplitExactOut,
  gas: bigint,
): Promise<{ amountIn: bigint; received: bigint }> {
  const { network, tokenIn, tokenOut, nativeIn, nativeOut, amountOut } = parameters
  const to = isAddressEqual(parameters.recipient, zeroAddress)
    ? ROUTER_PROBE_ADDRESS
    : parameters.recipient
  const legs = legsOf(split).map((leg, index) => ({
    hops: leg.hops,
    amountOut: split.routes[index]?.amountWanted ?? 0n,
    amountInMax: leg.amountIn,
  }))
  const call = swapRouterCallExactOut({
    legs,
    recipient: to,
    deadline: maxUint256,
    nativeIn,
    nativeOut,
  })
  const simulated = await probeRouterCall(
    {
      network,
      router: market.router as Address,
      tokenIn,
      tokenOut,
      amountIn: split.amountIn,
      nativeIn,
      nativeOut,
      to,
      balanceSlot: market.balanceSlot,
      blockNumber: market.blockNumber,
      expectedGas: gas,
    },
    call.data,
  )
  // The pools' math is the contract's: less than it says (or a revert) is a fee on transfer.
  if (!simulated || simulated.received < amountOut || simulated.received < split.amountOut) {
    const unsure = unsureTokens(network, market.config.wrappedNative, [tokenIn, tokenOut])
    throw new Unprocessable(
      unsure.length > 0
        ? `no exact-output route between these tokens on ${network}: a token on the path may take a fee on transfer, and the router has no exact-output swap for such tokens (quote type=exactIn instead)`
        : `the exact-output route between these tokens on ${network} reverted when simulated`,
    )
  }
  const amountIn = legs.reduce(
    (sum, _, index) => sum + (swapCallOutput(simulated.results[index]) ?? 0n),
    0n,
  )
  return { amountIn, received: simulated.received }
}

/** Whether a route answers an exact output. */
export function isExactOut(best: BestRoute): best is BestRouteExactOut {
  return (best as Partial<BestRouteExactOut>).exactOut === true
}
