import { DEFAULT_GAS_MODEL } from '../../lib/chain/pools/searchRoutes'
import type { NetworkName } from '../../lib/networkNames'
import type { Path } from './poolTypes'

// One gas model for both sides of the comparison: the network's gas settings are the only thing
// the reference takes from the service, and only as numbers (units per transaction, per route,
// per V2 and V3 hop, per tick crossed). Every route's gas, the service's answered route's too, is
// counted here from the reference's own simulation (ticks crossed included). Today the numbers
// are one model for every network (searchRoutes.ts); when they move to per-network settings
// (issue 33, lib/config.ts), this is the one import to follow them.

export interface GasUnits {
  transaction: bigint
  route: bigint
  v2Hop: bigint
  v3Hop: bigint
  tickCrossed: bigint
}

/** The network's gas units (one model for every network until the settings are per network). */
export function gasUnits(_network: NetworkName): GasUnits {
  const { transaction, route, v2Hop, v3Hop, tickCrossed } = DEFAULT_GAS_MODEL
  return { transaction, route, v2Hop, v3Hop, tickCrossed }
}

/** Gas of a split: the transaction once, then each leg and its hops (ticks as simulated). */
export function splitGas(
  units: GasUnits,
  legs: readonly { path: Path; ticksCrossed: number }[],
): bigint {
  let gas = units.transaction
  for (const { path, ticksCrossed } of legs) {
    gas += units.route + BigInt(ticksCrossed) * units.tickCrossed
    for (const hop of path.hops) gas += hop.pool.protocol === 'v2' ? units.v2Hop : units.v3Hop
  }
  return gas
}

/**
 * Token1 base units per gas unit, as a fraction: the gas price, times the native coin's price in
 * token1 (what the best single route pays for 0.01 wrapped native, gas ignored: the documented
 * convention), or the gas price itself when token1 is the native coin.
 */
export interface GasPrice {
  numerator: bigint
  denominator: bigint
}

export const gasCost = (gas: bigint, price: GasPrice) => (gas * price.numerator) / price.denominator
