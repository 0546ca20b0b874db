import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../../lib/networkNames'
import { DEFAULT_NETWORKS, type NetworkEntry } from '../../lib/networks'

// Tests keyed by network run on the networks TEST_NETWORKS names (comma-separated), the default
// stage's two unless it names others: the suite's stack serves every network of the table
// (tests/support/globalSetup.ts), but a network beyond the interface's two is tested by
// tests/e2e/addedNetwork.test.ts alone unless named (`TEST_NETWORKS=ethereum,altchain,base npm
// test`), so that CI does not pay for every keyed test once more per added network. What
// differs between networks is keyed by the demo catalog a network's devnet lists
// (lib/local/sampleCatalog.ts), so a network added to the table is tested with its catalog's
// cases.

/** The networks the tests keyed by network run on (TEST_NETWORKS), in the table's order. */
export const TESTED_NETWORKS: readonly NetworkName[] = testedNetworks(process.env.TEST_NETWORKS)

function testedNetworks(setting: string | undefined): NetworkName[] {
  const named = (setting ?? DEFAULT_NETWORKS.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = named.filter((name) => !(NETWORK_NAMES as readonly string[]).includes(name))
  if (unknown.length > 0 || named.length === 0) {
    throw new Error(
      `TEST_NETWORKS names ${unknown.join(', ') || 'no network'}; the table's are ${NETWORK_NAMES.join(', ')}`,
    )
  }
  return NETWORK_NAMES.filter((network) => named.includes(network))
}

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

/** Cases keyed by demo catalog, each on every tested network listing that catalog. */
export function casesOnEveryNetwork<Cases extends Record<DemoCatalog, readonly object[]>>(
  cases: Cases,
): Array<Cases[DemoCatalog][number] & { network: NetworkName }> {
  return TESTED_NETWORKS.flatMap((network) =>
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
