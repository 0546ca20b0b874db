import type { GasUnits, RouteGasUnits } from '../../config'

// The gas model routes are ranked by (DECISIONS §8.1: `amountOut − gas × gasPrice` in token1)
// and that `gasEstimate` answers (§10.2: within ±5 % of the receipt). Units are the network's
// (lib/networks.ts `gas`, fitted from devnet receipts by `npm run gas:fit`). The convention, which
// the independent reference test follows too: the native coin is priced in token1 by the best
// single route of GAS_PRICING_AMOUNT of the wrapped coin (ranked by output, gas left out). A
// route's gas is `route` + each hop's (`v2Call` once per run of consecutive V2 hops, the router
// call they share, and `v2Hop` each; or `v3Hop` + `tickCrossed` per initialized tick it crosses);
// a split's is `swap` + its routes'; the transaction's ends add the rest (transactionShape).

/** The wrapped coin priced in token1 with this much of it: 0.01 of a coin of 18 decimals. */
export const GAS_PRICING_AMOUNT = 10n ** 16n

/** Token1 base units one gas unit costs, as a fraction (gas price × the coin's price in token1). */
export interface GasPriceInToken1 {
  numerator: bigint
  denominator: bigint
}

/** Gas left out: routes ranked by output alone (a price rather than a trade). */
export const NO_GAS_PRICE: GasPriceInToken1 = { numerator: 0n, denominator: 1n }

/** The gas price in token1 from the wei price and what GAS_PRICING_AMOUNT of the coin pays. */
export function gasPriceInToken1(gasPriceWei: bigint, coinPaysToken1: bigint): GasPriceInToken1 {
  return { numerator: gasPriceWei * coinPaysToken1, denominator: GAS_PRICING_AMOUNT }
}

/** A hop's part of the model: its protocol and, on V3, the ticks it crosses. */
export interface GasHop {
  protocol: 'v2' | 'v3'
  ticksCrossed: number
  /** V3: tick-bitmap word edges stepped to without an initialized tick (0 where unknown). */
  wordsCrossed?: number
  /** The tokens it moves (the wrapped coin for the native one), where the shape counts them. */
  tokenIn?: string
  tokenOut?: string
}

/**
 * Units of one route of a split, as the search ranks it (additive, route by route): its leg of
 * the multicall and its hops; each token it passes through (`connectorToken`, counted for this
 * route alone: a split through the same token pays it once, which transactionShape counts); each
 * router call after its first (`routerPays`, less the refund of the router's balance cleared).
 */
export function routeGas(hops: readonly GasHop[], units: RouteGasUnits): bigint {
  let gas = units.route
  let calls = 0
  hops.forEach((hop, index) => {
    if (hop.protocol === 'v3') {
      calls += 1
      gas += units.v3Hop + units.tickCrossed * BigInt(hop.ticksCrossed)
      return
    }
    // The router runs consecutive V2 hops in one call (lib/chain/swapRouterCall.ts segmentsOf).
    const opensCall = hops[index - 1]?.protocol !== 'v2'
    if (opensCall) calls += 1
    gas += units.v2Hop + (opensCall ? (units.v2Call ?? 0n) : 0n)
  })
  const through = BigInt(Math.max(0, hops.length - 1))
  const heldCalls = BigInt(Math.max(0, calls - 1))
  return gas + through * (units.connectorToken ?? 0n) + heldCalls * heldCallGas(units)
}

/** A router call after a route's first, net of its refund; 0 where the units have no such part. */
export function heldCallGas(units: RouteGasUnits): bigint {
  return units.routerPays === undefined ? 0n : units.routerPays - CLEARED_SLOT_REFUND
}

/**
 * What `wei` of the native coin costs in token1 base units, rounded down, at `price` (gas at
 * `gasPriceWei`): an L2's L1 data fee, paid in the coin, not in gas.
 */
export function weiCost(wei: bigint, price: GasPriceInToken1, gasPriceWei: bigint): bigint {
  const denominator = price.denominator * gasPriceWei
  return denominator === 0n ? 0n : (wei * price.numerator) / denominator
}

/** What `gas` units cost in token1 base units, rounded down. */
export function gasCost(gas: bigint, price: GasPriceInToken1): bigint {
  return price.denominator === 0n ? 0n : (gas * price.numerator) / price.denominator
}

/**
 * What a storage slot set back to zero in the transaction that made it non-zero refunds
 * (EIP-2200 with EIP-3529's figures: SSTORE_SET 20,000 less a warm read), at most a fifth of the
 * transaction's gas (REFUND_QUOTIENT): the router's balance of a token it holds between calls,
 * of WETH it wraps, or of the output it sweeps or unwraps, each from 0 and back.
 */
export const CLEARED_SLOT_REFUND = 19_900n
export const REFUND_QUOTIENT = 5n

/**
 * How many of each part of the model a transaction has (their sum times the units is its gas
 * before refunds), and how many of the router's balances go from 0 and back (`refunds`).
 */
export type GasShape = Record<keyof GasUnits, number> & { refunds: number }

/** What a transaction's ends are, beside its routes. */
export interface TransactionEnds {
  nativeIn: boolean
  nativeOut: boolean
  /** Every route pays the recipient itself (swapRouterCall's `legsPayRecipient`): no sweep. */
  legsPayRecipient: boolean
  /** Hops that move a token seen taking a fee on transfer. */
  feeOnTransferHops: number
  /** The recipient held none of the output token (or, native out, is an empty account). */
  freshRecipient: boolean
}

/** The shape of a swap's multicall: its routes (hops, ticks crossed) and its ends. */
export function transactionShape(
  routes: readonly (readonly GasHop[])[],
  ends: TransactionEnds,
): GasShape {
  const hops = routes.flat()
  // Router calls: a V3 hop each, consecutive V2 hops one (swapRouterCall.ts segmentsOf).
  const callsOf = (route: readonly GasHop[]) =>
    route.filter((hop, index) => hop.protocol === 'v3' || route[index - 1]?.protocol !== 'v2')
  const v2Calls = routes.reduce(
    (calls, route) => calls + callsOf(route).filter((hop) => hop.protocol === 'v2').length,
    0,
  )
  const calls = routes.reduce((count, route) => count + callsOf(route).length, 0)
  const collects = ends.nativeOut || (routes.length > 1 && !ends.legsPayRecipient)
  const wraps = ends.nativeIn ? routes.length : 0
  const tokens = new Set(
    hops
      .flatMap((hop) => [hop.tokenIn, hop.tokenOut])
      .flatMap((token) => (token ? [token.toLowerCase()] : [])),
  )
  return {
    refunds: wraps + (calls - routes.length) + (collects ? 1 : 0),
    swap: 1,
    route: routes.length,
    v2Call: v2Calls,
    v2Hop: hops.filter((hop) => hop.protocol === 'v2').length,
    v3Hop: hops.filter((hop) => hop.protocol === 'v3').length,
    tickCrossed: hops.reduce((ticks, hop) => ticks + hop.ticksCrossed, 0),
    wordCrossed: hops.reduce((words, hop) => words + (hop.wordsCrossed ?? 0), 0),
    routerPays: calls - routes.length,
    connectorToken: Math.max(0, tokens.size - 2),
    wrap: wraps,
    unwrap: ends.nativeOut ? 1 : 0,
    sweep: collects && !ends.nativeOut ? 1 : 0,
    feeOnTransferHop: ends.feeOnTransferHops,
    freshBalance: ends.freshRecipient && !ends.nativeOut ? 1 : 0,
    freshAccount: ends.freshRecipient && ends.nativeOut ? 1 : 0,
  }
}

/** Units of a transaction of `shape`: its parts' units, less what its cleared slots refund. */
export function shapeGas(shape: GasShape, units: GasUnits): bigint {
  let gross = 0n
  for (const part of Object.keys(units) as (keyof GasUnits)[]) {
    gross += BigInt(shape[part]) * units[part]
  }
  const refund = BigInt(shape.refunds) * CLEARED_SLOT_REFUND
  const cap = gross / REFUND_QUOTIENT
  return gross - (refund < cap ? refund : cap)
}

/**
 * The gas before refunds of a receipt's `gasUsed` (the fit's target): `gasUsed` plus the refunds
 * where they stayed under the cap (a fifth of the gas before them), else `gasUsed` × 5 / 4.
 */
export function grossOf(gasUsed: bigint, refunds: number): bigint {
  const refund = BigInt(refunds) * CLEARED_SLOT_REFUND
  return refund * (REFUND_QUOTIENT - 1n) <= gasUsed
    ? gasUsed + refund
    : (gasUsed * REFUND_QUOTIENT) / (REFUND_QUOTIENT - 1n)
}
