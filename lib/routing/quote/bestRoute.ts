import { type Address, isAddressEqual, zeroAddress } from 'viem'
import type { GasEstimate } from '../../chain/estimateCallGas'
import { ROUTER_PROBE_ADDRESS } from '../../chain/routerProbe'
import { Unprocessable } from '../../errors'
import { gasCost, type GasShape, shapeGas, weiCost } from '../gas/gasModel'
import { l1FeeQuoter } from '../gas/l1Fee'
import { learnPlain } from '../simulate/plainTokens'
import type { SimulatedSplit } from '../simulate/simulateSplit'
import { answeredRoutes, type AnsweredRoute } from './answeredRoutes'
import { feeSafePlans, type QuotePlan, unsureTokens } from './feeSafePlans'
import { type PlanEnds, planShape } from './planGas'
import { priceImpactBps } from './priceImpact'
import { type Market, readMarket, type ReadMarketParameters } from './readMarket'
import { RoutePlanner } from './routePlanner'
import { bestSimulated, simulatePlans } from './simulatePlans'

export interface BestRouteParameters extends ReadMarketParameters {
  amountIn: bigint
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
  /** The L2 gas's cost and, on an L2, its L1 data fee (`l1FeeWei`), in token1. */
  gasCostToken1: bigint
  /** An L2's L1 data fee of the quoted transaction (lib/routing/gas/l1Fee.ts), in wei and token1. */
  l1Fee?: { wei: bigint; token1: bigint }
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
  const { network, tokenIn, tokenOut, amountIn, nativeIn, nativeOut } = parameters
  const market = await readMarket(parameters)
  await parameters.beforeMoreCalls
  const planner = new RoutePlanner(market, parameters)
  const best = await planner.planPaged()
  if (!best) throw new Unprocessable(`no liquidity path between these tokens on ${network}`)
  const unsure = unsureTokens(network, market.config.wrappedNative, [tokenIn, tokenOut])
  const plans = feeSafePlans({ planner, best, unsure, tokenOut, nativeOut })
  const ends: PlanEnds = { nativeIn, nativeOut, unsure, freshRecipient: market.freshRecipient }
  const { router } = market
  const l1FeeOf = l1FeeQuoter({
    ...parameters,
    oracle: market.config.l1FeeOracle,
    chainId: market.config.chainId,
    router,
    gasPriceWei: market.gasPriceWei,
  })
  if (!market.simulate || !router || (!nativeIn && market.balanceSlot === null)) {
    const plan = unsimulatedPlan(plans, market.simulate)
    return answerOf(market, plan, ends, { l1FeeWei: await l1FeeOf(plan) })
  }
  const to = isAddressEqual(parameters.recipient, zeroAddress)
    ? ROUTER_PROBE_ADDRESS
    : parameters.recipient
  // An L2's L1 fee of the best plan's transaction, asked in the simulations' batch.
  const [outcomes, bestL1Fee] = await Promise.all([
    simulatePlans(plans, {
      network,
      router,
      tokenIn,
      tokenOut,
      amountIn,
      nativeIn,
      nativeOut,
      to,
      balanceSlot: market.balanceSlot,
      blockNumber: market.blockNumber,
      ...(parameters.estimateFrom && { estimateFrom: parameters.estimateFrom }),
    }),
    plans[0] && l1FeeOf(plans[0]),
  ])
  learnPlain({
    network,
    unsure,
    amountIn,
    searched: best.split,
    received: outcomes[0]?.[0]?.received,
  })
  const chosen = bestSimulated(plans, outcomes, ends, market.config.gasUnits)
  if (!chosen) {
    throw new Unprocessable(
      `every route between these tokens on ${network} reverted when simulated`,
    )
  }
  const l1FeeWei = chosen.plan === plans[0] ? bestL1Fee : await l1FeeOf(chosen.plan)
  return answerOf(market, chosen.plan, ends, { ...chosen, l1FeeWei })
}

/**
 * Nothing to simulate with: the pools' math, on the plan any token can take where balances
 * cannot be set (the fee-safe one), else the best.
 */
function unsimulatedPlan(plans: readonly QuotePlan[], simulate: boolean): QuotePlan {
  const feeSafePlan = plans.find((candidate, index) => index > 0 && !candidate.legsPayRecipient)
  const [best] = plans
  if (!best) throw new Error('a quote plans its best split first')
  return (simulate && feeSafePlan) || best
}

/** The answer for `chosen`, by its simulation where it was simulated, else by the pools' math. */
function answerOf(
  market: Market,
  chosen: QuotePlan,
  ends: PlanEnds,
  {
    simulated,
    estimate,
    l1FeeWei,
  }: {
    simulated?: SimulatedSplit
    estimate?: GasEstimate | undefined
    l1FeeWei?: bigint | undefined
  },
): BestRoute {
  const routes = answeredRoutes(chosen.split, simulated)
  const amountOut = simulated?.received ?? chosen.split.amountOut
  const gasShape: GasShape = planShape(chosen, ends, simulated)
  const gas = shapeGas(gasShape, market.config.gasUnits)
  const l1Fee = l1FeeWei !== undefined && {
    wei: l1FeeWei,
    token1: weiCost(l1FeeWei, chosen.gasPrice, market.gasPriceWei),
  }
  return {
    amountOut,
    routes,
    searchedAmountOut: chosen.split.amountOut,
    gas,
    gasShape,
    gasPrice: market.gasPriceWei,
    gasCostToken1: gasCost(gas, chosen.gasPrice) + (l1Fee ? l1Fee.token1 : 0n),
    ...(l1Fee && { l1Fee }),
    priceImpactBps: priceImpactBps(routes, amountOut),
    blockNumber: market.blockNumber,
    router: market.router ?? zeroAddress,
    simulated: simulated !== undefined,
    ...(estimate && { estimate }),
    legsPayRecipient: chosen.legsPayRecipient,
  }
}
