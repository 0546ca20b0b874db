import { readFileSync } from 'node:fs'
import { loadChainConfig } from '../../lib/config'
import type { NetworkName } from '../../lib/networkNames'
import type { Path } from './poolTypes'

// The reference's own gas model: units fitted from receipts of swaps executed on the devnets
// (`npm run gas:fit` writes them here, tests/reference/fittedGasUnits.json, beside the network
// table; never read through the service's configuration), through the reference's own additive
// arithmetic: a transaction, then per leg its route, each hop (a V2 run of hops one router call,
// each V3 hop its own), each initialized tick crossed, each token passed through, and each router
// call after a leg's first net of the refund of the router's cleared balance. Every route's gas,
// the service's answered route's too, is counted from the reference's simulation (ticks crossed
// included).

export interface GasUnits {
  transaction: bigint
  route: bigint
  v2Call: bigint
  v2Hop: bigint
  v3Hop: bigint
  tickCrossed: bigint
  connectorToken: bigint
  /** A router call after a leg's first, its cleared balance's refund (19,900) taken off. */
  heldCall: bigint
}

/** What EIP-3529 refunds for a slot set back to 0 in the transaction that made it non-zero. */
const CLEARED_SLOT_REFUND = 19_900n

const FITTED_UNITS_FILE = new URL('./fittedGasUnits.json', import.meta.url)

/** The network's gas units as the fit wrote them. */
export function gasUnits(network: NetworkName): GasUnits {
  const fitted = JSON.parse(readFileSync(FITTED_UNITS_FILE, 'utf8')) as Record<
    string,
    Record<string, number> | undefined
  >
  const units = fitted[network]
  if (!units) throw new Error(`${network}: no fitted gas units (run npm run gas:fit)`)
  const unit = (part: string) => BigInt(units[part] ?? 0)
  const result = {
    transaction: unit('swap'),
    route: unit('route'),
    v2Call: unit('v2Call'),
    v2Hop: unit('v2Hop'),
    v3Hop: unit('v3Hop'),
    tickCrossed: unit('tickCrossed'),
    connectorToken: unit('connectorToken'),
    heldCall: unit('routerPays') - CLEARED_SLOT_REFUND,
  }
  if (result.transaction <= 0n || result.v2Hop <= 0n || result.v3Hop <= 0n) {
    throw new Error(`${network}: the fitted gas units lack a transaction or hop figure`)
  }
  return result
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
    let calls = 0n
    path.hops.forEach((hop, index) => {
      if (hop.pool.protocol === 'v3') {
        calls += 1n
        gas += units.v3Hop
        return
      }
      const opens = path.hops[index - 1]?.pool.protocol !== 'v2'
      if (opens) calls += 1n
      gas += units.v2Hop + (opens ? units.v2Call : 0n)
    })
    gas += BigInt(Math.max(0, path.hops.length - 1)) * units.connectorToken
    if (calls > 1n) gas += (calls - 1n) * units.heldCall
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
