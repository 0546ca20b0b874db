import { DEFAULT_NETWORKS, NETWORK_TABLE } from './networks'

// The networks the service knows, named once in the network table (lib/networks.ts): the request
// and answer schemas, the configuration's variables (<NET>_*, the name in capitals), the chain
// clients and the local stack read them from here. Which of them a stage serves is the setting
// NETWORKS (lib/config.ts, loadServedNetworks).

export const NETWORKS = NETWORK_TABLE

export type NetworkName = keyof typeof NETWORK_TABLE

/** Every network of the table, in the order the service lists them. */
export const NETWORK_NAMES = Object.keys(NETWORK_TABLE) as [NetworkName, ...NetworkName[]]

/** The networks a stage serves unless NETWORKS names others: the interface's two. */
export const DEFAULT_NETWORK_NAMES: readonly NetworkName[] = DEFAULT_NETWORKS
