import { DEFAULT_NETWORKS, NETWORK_TABLE } from '../networks'

// NETWORKS, as the deploy rules (lib/serverless/servedNetworks.ts) and `npm start --networks`
// (lib/local/start.ts) read it: comma-separated names of the network table; unset or empty, the
// interface's two. The functions read it with the configuration (lib/config.ts).

type Network = keyof typeof NETWORK_TABLE

const KNOWN = Object.keys(NETWORK_TABLE) as Network[]

export class UnknownNetworkError extends Error {
  override name = 'UnknownNetworkError'
}

/** The networks a NETWORKS value names, in the table's order; throws on a name it lacks. */
export function parseServedNetworks(value: string | undefined): Network[] {
  const listed = (value?.trim() ? value : DEFAULT_NETWORKS.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const unknown = listed.filter((name) => !(KNOWN as string[]).includes(name))
  if (unknown.length > 0) {
    throw new UnknownNetworkError(
      `NETWORKS names ${unknown.join(', ')}, not in the network table (lib/networks.ts: ${KNOWN.join(', ')})`,
    )
  }
  return KNOWN.filter((name) => listed.includes(name))
}
