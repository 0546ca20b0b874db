import type { RouteGasUnits } from '../config'

// The gas model routes are ranked by (DECISIONS §8.1: `amountOut − gas × gasPrice` in token1).
// Units are the network's settings (lib/config.ts, RouteGasUnits). The convention, which the
// independent reference test follows too: the native coin is priced in token1 by the best single
// route of GAS_PRICING_AMOUNT of the wrapped coin (ranked by output, gas left out), and a
// route's gas is `route` + each hop's (`v2Hop`, or `v3Hop` + `tickCrossed` per initialized tick
// it crosses), a split's `swap` + its routes'.

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
}

/** Units of one route of a split (its leg of the multicall and its hops). */
export function routeGas(hops: readonly GasHop[], units: RouteGasUnits): bigint {
  return hops.reduce(
    (gas, hop) =>
      gas +
      (hop.protocol === 'v2'
        ? units.v2Hop
        : units.v3Hop + units.tickCrossed * BigInt(hop.ticksCrossed)),
    units.route,
  )
}

/** What `gas` units cost in token1 base units, rounded down. */
export function gasCost(gas: bigint, price: GasPriceInToken1): bigint {
  return price.denominator === 0n ? 0n : (gas * price.numerator) / price.denominator
}
