import { DEFAULT_NETWORKS, NETWORK_TABLE } from './networks'

// The networks the service knows, named once in the network table (lib/networks.ts): the request
// and answer schemas, the configuration's variables (<NET>_*, the name in capitals), the chain
// clients, the deploy rules and the local stack read them from here, and NETWORKS (which of
// them a stage serves) is parsed here for all of them: the functions (lib/config.ts,
// loadServedNetworks), the deploy rules (lib/serverless/servedNetworks.ts) and `npm start
// --networks` (lib/local/start.ts).

export const NETWORKS = NETWORK_TABLE

export type NetworkName = keyof typeof NETWORK_TABLE

/** Every network of the table, in the order the service lists them: the one list of them. */
export const NETWORK_NAMES = Object.keys(NETWORK_TABLE) as [NetworkName, ...NetworkName[]]

/** The networks a stage serves unless NETWORKS names others: the interface's two. */
export const DEFAULT_NETWORK_NAMES: readonly NetworkName[] = DEFAULT_NETWORKS

export class UnknownNetworkError extends Error {
  override name = 'UnknownNetworkError'
}

/**
 * The networks a NETWORKS value names (comma-separated names of the table; unset or empty, the
 * interface's two), in the table's order; throws on a name the table lacks.
 */
export function parseServedNetworks(value: string | undefined): NetworkName[] {
  const listed = (value?.trim() ? value : DEFAULT_NETWORK_NAMES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const known: readonly string[] = NETWORK_NAMES
  const unknown = listed.filter((name) => !known.includes(name))
  if (unknown.length > 0) {
    throw new UnknownNetworkError(
      `NETWORKS names ${unknown.join(', ')}, not in the network table (lib/networks.ts: ${NETWORK_NAMES.join(', ')})`,
    )
  }
  return NETWORK_NAMES.filter((name) => listed.includes(name))
}
