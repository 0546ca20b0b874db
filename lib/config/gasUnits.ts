import { NETWORK_ENTRIES } from '../networks'
import type { NetworkName } from '../networkNames'

// The gas model's units (DECISIONS §8.1, §9.5, §10.2): the network table's entry, fitted from
// devnet receipts (lib/networks.ts `gas`, npm run gas:fit), each part overridable by its
// `<NET>_GAS_PER_<PART>`.

/**
 * The units the search ranks routes by (DECISIONS §8.1, §9.3): a route's gas is `route` plus each
 * hop's (`v2Call` once per run of consecutive V2 hops, `v2Hop` each; `v3Hop` each plus
 * `tickCrossed` per initialized tick it crosses); a split's is `swap` plus its routes'.
 */
export interface RouteGasUnits {
  /** Once per transaction: 21,000 intrinsic, the calldata, the multicall. */
  swap: bigint
  /** Once per route of a split: its leg of the multicall and the input's transfer in. */
  route: bigint
  /** Once per router call of consecutive V2 hops; absent: 0. */
  v2Call?: bigint
  v2Hop: bigint
  v3Hop: bigint
  /** Per initialized tick a V3 hop crosses. */
  tickCrossed: bigint
  /** Per router call after a route's first (before its refund, CLEARED_SLOT_REFUND); absent: 0. */
  routerPays?: bigint
  /** Per token a route passes through (counted once a route by the search); absent: 0. */
  connectorToken?: bigint
}

/**
 * Every part of a network's gas model (lib/networks.ts GasUnitsEntry): the search's units and
 * what the transaction's ends add (wrap, unwrap, sweep, fee-on-transfer hops, fresh balances).
 */
export interface GasUnits extends Required<RouteGasUnits> {
  wordCrossed: bigint
  wrap: bigint
  unwrap: bigint
  sweep: bigint
  feeOnTransferHop: bigint
  freshBalance: bigint
  freshAccount: bigint
}

/** The parts of the gas model, as the network table names them. */
export const GAS_PARTS = [
  'swap',
  'route',
  'v2Call',
  'v2Hop',
  'v3Hop',
  'tickCrossed',
  'wordCrossed',
  'routerPays',
  'connectorToken',
  'wrap',
  'unwrap',
  'sweep',
  'feeOnTransferHop',
  'freshBalance',
  'freshAccount',
] as const satisfies readonly (keyof GasUnits)[]

/** A part's variable suffix: `v2Hop` is `<NET>_GAS_PER_V2_HOP`. */
export function gasVariable(part: (typeof GAS_PARTS)[number]): string {
  return part.replace(/([a-z])([A-Z0-9])/g, '$1_$2').toUpperCase()
}

/** The table's units, each overridden by its `<NET>_GAS_PER_<PART>` where set. */
export function gasUnitsOf(env: Record<string, string | number>, network: NetworkName): GasUnits {
  const table = NETWORK_ENTRIES[network].gas
  const prefix = network.toUpperCase()
  return Object.fromEntries(
    GAS_PARTS.map((part) => {
      const set = env[`${prefix}_GAS_PER_${gasVariable(part)}`]
      return [part, BigInt(set ?? table[part])]
    }),
  ) as unknown as GasUnits
}

/** An L2's GasPriceOracle (the table's `l1Fee.oracle`), whose L1 fee a quote adds; else none. */
export function l1FeeOracleOf(network: NetworkName): `0x${string}` | undefined {
  return NETWORK_ENTRIES[network].l1Fee?.oracle
}
