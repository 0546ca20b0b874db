import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../../lib/networkNames'
import type { NetworkEntry } from '../../lib/networks'

// Tests keyed by network run on every network of the table, which the suite's stack serves
// (tests/support/globalSetup.ts): what differs between networks is keyed by the demo catalog a
// network's devnet lists (lib/local/sampleCatalog.ts), so a network added to the table is tested
// with its catalog's cases.

export type DemoCatalog = NetworkEntry['devnet']['catalog']

/** The demo catalog a network's devnet lists. */
export function catalogOf(network: NetworkName): DemoCatalog {
  return NETWORKS[network].devnet.catalog
}

/** A network's value of a table keyed by demo catalog. */
export function byCatalog<Values extends Record<DemoCatalog, unknown>>(
  network: NetworkName,
  values: Values,
): Values[DemoCatalog] {
  return values[catalogOf(network)]
}

/** Cases keyed by demo catalog, each on every network listing that catalog. */
export function casesOnEveryNetwork<Cases extends Record<DemoCatalog, readonly object[]>>(
  cases: Cases,
): Array<Cases[DemoCatalog][number] & { network: NetworkName }> {
  return NETWORK_NAMES.flatMap((network) =>
    cases[catalogOf(network)].map((item) => ({ ...item, network })),
  )
}

/**
 * The demo token each catalog pools with both the native coin and the stablecoin, in V2 and V3
 * (LINK on ethereum's, CAKE on altchain's): the token most tests trade.
 */
export function pairedToken(network: NetworkName): string {
  return byCatalog(network, { ethereum: 'LINK', altchain: 'CAKE' })
}
