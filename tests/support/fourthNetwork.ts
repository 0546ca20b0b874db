import type { NetworkEntry } from '../../lib/networks'

// A fourth network, L2-shaped, that the shipped table (lib/networks.ts) does not hold: what adding
// a network takes is its entry and its devnet deployment (issue 42). Base's entry with its own
// name, chain ids, devnet port and a cheaper base fee; Base's mainnet contracts stand in for its
// own (the package and the devnet never call them). tests/serverless/fourthNetwork.test.ts adds
// it to a copy of the repository's table (for `serverless package`) and to the test's own
// modules (vi.mock of lib/networks.ts, for the handlers).

export const FOURTH_NETWORK = 'optimism'

type NetworksModule = typeof import('../../lib/networks')

/** The fourth network's entry, made from the table's L2 (`base`). */
export function fourthNetworkEntry(l2: NetworkEntry): NetworkEntry {
  return {
    ...l2,
    title: 'Optimism',
    deployed: { ...l2.deployed, chainId: 10 },
    devnet: { ...l2.devnet, chainId: 31340, port: 8548, baseFeeWei: 1_000_000n },
  }
}

/** The table module with the fourth network's entry after the others. */
export function withFourthNetwork(real: NetworksModule): NetworksModule {
  const table = {
    ...real.NETWORK_TABLE,
    [FOURTH_NETWORK]: fourthNetworkEntry(real.NETWORK_ENTRIES.base),
  } as unknown as NetworksModule['NETWORK_TABLE']
  return { ...real, NETWORK_TABLE: table, NETWORK_ENTRIES: table }
}

/** A value as TypeScript source (strings quoted, bigints with their `n`). */
function source(value: unknown, indent: string): string {
  if (typeof value === 'string') return `'${value}'`
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map((item) => source(item, indent)).join(', ')}]`
  const inner = `${indent}  `
  const fields = Object.entries(value as Record<string, unknown>).map(
    ([name, field]) => `${inner}${name}: ${source(field, inner)},`,
  )
  return `{\n${fields.join('\n')}\n${indent}}`
}

/** lib/networks.ts's text with the fourth network's entry added at the end of the table. */
export function tableWithFourthNetwork(tableSource: string, l2: NetworkEntry): string {
  const end = '} as const satisfies Record<string, NetworkEntry>'
  if (!tableSource.includes(end)) throw new Error("lib/networks.ts: the table's end not found")
  const entry = `  ${FOURTH_NETWORK}: ${source(fourthNetworkEntry(l2), '  ')},\n`
  return tableSource.replace(end, `${entry}${end}`)
}
