import { loadChainConfig } from '../../lib/config'
import type { NetworkName } from '../../lib/networkNames'
import type { Path } from './poolTypes'

// One gas model for both sides of the comparison: the network's gas settings are the only thing
// the reference takes from the service, and only as numbers (the <NET>_GAS_PER_* settings, read
// through the service's configuration as its router reads them: units per transaction, per
// route, per V2 and V3 hop, per tick crossed). The arithmetic is the reference's own, and every
// route's gas, the service's answered route's too, is counted from the reference's simulation
// (ticks crossed included).

export interface GasUnits {
  transaction: bigint
  route: bigint
  v2Hop: bigint
  v3Hop: bigint
  tickCrossed: bigint
}

/**
 * The network's gas units, as configured. Read after the network's environment is set (the
 * configuration is read once).
 */
export function gasUnits(network: NetworkName): GasUnits {
  const { swap, route, v2Hop, v3Hop, tickCrossed } = loadChainConfig(network).gasUnits
  const units = { transaction: swap, route, v2Hop, v3Hop, tickCrossed }
  for (const [part, value] of Object.entries(units)) {
    if (value <= 0n) throw new Error(`${network}: no gas units configured per ${part}`)
  }
  return units
}

/** The V2 fee the service prices pairs with (<NET>_V2_FEE_BPS or the network's entry). */
export const configuredV2FeeBps = (network: NetworkName) => loadChainConfig(network).v2FeeBps

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
