// The networks the service serves, spelled once: the request and answer schemas, the
// configuration's variables (<NET>_*, the name in capitals) and the chain clients read this.
// Adding a network is an entry here, its settings (serverless.yml, the local stack's devnet) and
// its handlers (the README, "How to add").

export const NETWORKS = {
  ethereum: { nativeCurrency: { name: 'Ether', symbol: 'ETH' } },
  altchain: { nativeCurrency: { name: 'Native coin', symbol: 'NATIVE' } },
} as const satisfies Record<string, { nativeCurrency: { name: string; symbol: string } }>

export type NetworkName = keyof typeof NETWORKS

/** In the order the service lists and serves them. */
export const NETWORK_NAMES = Object.keys(NETWORKS) as [NetworkName, ...NetworkName[]]
