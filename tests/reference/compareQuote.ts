import type { Address } from 'viem'
import type { ReferenceAnswer } from './bruteForce'
import { type GasPrice, type GasUnits, gasCost, splitGas } from './gasModel'
import { lower, type Market, type Path, type PoolInfo } from './poolTypes'
import type { QuoteAnswer } from './quoteService'
import { type Delivered, simulateLegsFast, simulateLegsSdk } from './simulateLegs'

// One case judged by DECISIONS §9.3 on what the answer's route pays, not on what the answer
// claims: the route re-priced by the Uniswap SDKs on the pools as read from the chain (legs in
// order, on one copy of the pools, as the router runs them), which must be the answer's amountOut
// to the unit and take exactly the query's input; that re-priced output net of gas (the route's
// gas counted by the reference's own simulation, under the same model) against the brute force's
// best net, less 1 bps; no 5xx; legs summing to amountOut; and at the largest size, where gas is
// negligible, the re-priced output against the brute force's best split by output alone, less 1 bps.

/**
 * How far the re-priced route may differ from amountOut: not a unit. Both price every hop with
 * the pools' own integer arithmetic (a V2 pair's floor division, a V3 pool's rounding as its
 * contract rounds, a transfer fee's floor as measured on chain), so a route has one output; a
 * difference is an answer that claims what its route does not pay (or pays what it does not claim).
 */
export const REPRICE_TOLERANCE = 0n

export interface CaseVerdict {
  status: number
  /** Service net against reference net, in bps of the reference's (−10,000 when unanswered). */
  netBps: number
  serviceNet?: bigint
  referenceNet: bigint
  /** Worse than the reference's best net by more than 1 bps (or unanswered). */
  failsNet: boolean
  /** The route legs' amountOut do not sum to amountOut. */
  legsMismatch: boolean
  /** Raw amountOut against the reference's best by output (checked at the largest size). */
  rawBps?: number
  failsRaw: boolean
  /** The service's route as the SDKs price it (legs in order): the figure judged. */
  repriced?: bigint
  /** The re-priced route differs from amountOut by more than REPRICE_TOLERANCE. */
  routeRepricedDiffers: boolean
  /** The route's legs take in total other than the query's input. */
  inputMismatch: boolean
  serviceGas?: bigint
}

/** The signed difference in bps of `reference` (positive: the service is ahead). */
export function bpsOf(service: bigint, reference: bigint): number {
  const scale = reference < 0n ? -reference : reference
  if (scale === 0n) return service === 0n ? 0 : service > 0n ? 10_000 : -10_000
  return Number(((service - reference) * 1_000_000n) / scale) / 100
}

/** More than 1 bps below: the §9.3 bar. */
const shortByMoreThanOneBps = (service: bigint, reference: bigint) => {
  const scale = reference < 0n ? -reference : reference
  return (reference - service) * 10_000n > scale
}

/** The service's answered route as reference paths (its pools must be ones the reference found). */
function servicePaths(
  route: NonNullable<QuoteAnswer['result']>['route'],
  pools: ReadonlyMap<Address, PoolInfo>,
): { path: Path; amountIn: bigint }[] {
  return route.map((leg) => {
    const hops = leg.hops.map((hop) => {
      const pool = pools.get(lower(hop.pool))
      if (!pool)
        throw new Error(`the service routes through ${hop.pool}, a pool the reference never found`)
      const tokenIn = lower(hop.tokenIn)
      return { pool, tokenIn, tokenOut: lower(hop.tokenOut), zeroForOne: tokenIn === pool.token0 }
    })
    return {
      path: { hops, key: hops.map((hop) => hop.pool.address).join('>') },
      amountIn: BigInt(leg.hops[0]?.amountIn ?? '0'),
    }
  })
}

/** The answer's route priced by the SDKs (the figure) and the search's math (its ticks crossed). */
async function repriceRoute(
  market: Market,
  legs: { path: Path; amountIn: bigint }[],
  delivered: Delivered,
) {
  const [sdk, fast] = [
    await simulateLegsSdk(market, legs, delivered),
    simulateLegsFast(market, legs, delivered),
  ]
  if (sdk.amountOut !== fast.amountOut) {
    throw new Error(
      `the SDKs price the service's route at ${sdk.amountOut}, the reference's search at ${fast.amountOut}`,
    )
  }
  return { amountOut: sdk.amountOut, ticksCrossed: fast.legs.map((leg) => leg.ticksCrossed) }
}

const differsBeyondRounding = (a: bigint, b: bigint) => (a > b ? a - b : b - a) > REPRICE_TOLERANCE

export async function judgeCase({
  answer,
  amountIn,
  reference,
  largestSize,
  market,
  pools,
  delivered,
  units,
  gasPrice,
}: {
  answer: QuoteAnswer
  /** The query's input, in the router token's base units. */
  amountIn: bigint
  reference: ReferenceAnswer
  largestSize: boolean
  market: Market
  pools: ReadonlyMap<Address, PoolInfo>
  delivered: Delivered
  units: GasUnits
  gasPrice: GasPrice
}): Promise<CaseVerdict> {
  const referenceNet = reference.bestNet.net
  const result = answer.result
  if (answer.status !== 200 || !result) {
    return {
      status: answer.status,
      netBps: -10_000,
      referenceNet,
      failsNet: true,
      legsMismatch: false,
      failsRaw: largestSize,
      routeRepricedDiffers: false,
      inputMismatch: false,
    }
  }
  const amountOut = BigInt(result.amountOut)
  const legs = servicePaths(result.route, pools)
  const repriced = await repriceRoute(market, legs, delivered)
  const serviceGas = splitGas(
    units,
    legs.map((leg, index) => ({
      path: leg.path,
      ticksCrossed: repriced.ticksCrossed[index] ?? 0,
    })),
  )
  const serviceNet = repriced.amountOut - gasCost(serviceGas, gasPrice)
  const legsSum = result.route.reduce(
    (sum, leg) => sum + BigInt(leg.hops[leg.hops.length - 1]?.amountOut ?? '0'),
    0n,
  )
  const rawReference = reference.bestRaw.amountOut
  return {
    status: 200,
    netBps: bpsOf(serviceNet, referenceNet),
    serviceNet,
    referenceNet,
    failsNet: shortByMoreThanOneBps(serviceNet, referenceNet),
    legsMismatch: legsSum !== amountOut,
    ...(largestSize && { rawBps: bpsOf(repriced.amountOut, rawReference) }),
    failsRaw: largestSize && shortByMoreThanOneBps(repriced.amountOut, rawReference),
    repriced: repriced.amountOut,
    routeRepricedDiffers: differsBeyondRounding(repriced.amountOut, amountOut),
    inputMismatch: legs.reduce((sum, leg) => sum + leg.amountIn, 0n) !== amountIn,
    serviceGas,
  }
}
