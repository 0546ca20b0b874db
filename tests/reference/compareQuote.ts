import type { Address } from 'viem'
import type { ReferenceAnswer } from './bruteForce'
import { type GasPrice, type GasUnits, gasCost, splitGas } from './gasModel'
import { lower, type Market, type Path, type PoolInfo } from './poolTypes'
import type { QuoteAnswer } from './quoteService'
import { type Delivered, simulateLegsFast } from './simulateLegs'

// One case judged by DECISIONS §9.3: the service's amountOut net of gas (its route's gas counted
// by the reference's own simulation, under the same model) against the brute force's best net,
// less 1 bps; no 5xx; legs summing to amountOut; and at the largest size, where gas is negligible,
// the raw amountOut against the brute force's best split by output alone, less 1 bps.

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
  /** The service's own route, priced hop by hop by the reference, is not its amountOut. */
  routeRepricedDiffers: boolean
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

export function judgeCase({
  answer,
  reference,
  largestSize,
  market,
  pools,
  delivered,
  units,
  gasPrice,
}: {
  answer: QuoteAnswer
  reference: ReferenceAnswer
  largestSize: boolean
  market: Market
  pools: ReadonlyMap<Address, PoolInfo>
  delivered: Delivered
  units: GasUnits
  gasPrice: GasPrice
}): CaseVerdict {
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
    }
  }
  const amountOut = BigInt(result.amountOut)
  const legs = servicePaths(result.route, pools)
  const repriced = simulateLegsFast(market, legs, delivered)
  const serviceGas = splitGas(
    units,
    legs.map((leg, index) => ({
      path: leg.path,
      ticksCrossed: repriced.legs[index]?.ticksCrossed ?? 0,
    })),
  )
  const serviceNet = amountOut - gasCost(serviceGas, gasPrice)
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
    ...(largestSize && { rawBps: bpsOf(amountOut, rawReference) }),
    failsRaw: largestSize && shortByMoreThanOneBps(amountOut, rawReference),
    routeRepricedDiffers: repriced.amountOut !== amountOut,
    serviceGas,
  }
}
