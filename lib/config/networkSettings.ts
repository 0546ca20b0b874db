import { NETWORK_ENTRIES, type NetworkEntry } from '../networks'

// A network's settings as the network table (lib/networks.ts) gives them, under the names of the
// variables that may override each (`<NET>_ROUTER`, ...): the table is what runs (DECISIONS §9.5),
// and the environment only overrides it (the local devnets' addresses, which `npm start` deploys
// anew) or carries what the table cannot hold (the RPC URLs, secrets, or the SSM parameter
// naming them). lib/config.ts parses the two together.

/** Uniswap V2's pair, which the local devnets deploy on every network (lib/local/deployDex.ts). */
const DEVNET_V2_FEE_BPS = 30

/** The table's settings of a deployed stage: the network's mainnet contracts. */
function deployedSettings(entry: NetworkEntry): Record<string, string> {
  const { deployed } = entry
  return {
    CHAIN_ID: String(deployed.chainId),
    ROUTER: deployed.v2.router,
    FACTORY: deployed.v2.factory,
    WRAPPED_NATIVE: deployed.wrappedNative,
    USD_STABLECOIN: deployed.usdStablecoin,
    V3_FACTORY: deployed.v3.factory,
    V3_POOL_DEPLOYER: deployed.v3.poolDeployer,
    V3_POOL_INIT_CODE_HASH: deployed.v3.poolInitCodeHash,
    V3_FEE_TIERS: deployed.v3.feeTiers.join(','),
    SWAP_ROUTER: deployed.swapRouter,
    CONNECTOR_TOKENS: deployed.connectorTokens.join(','),
    ...(deployed.baseTokens.length > 0 && { BASE_TOKENS: deployed.baseTokens.join(',') }),
    CONFIRMATIONS: String(deployed.confirmations),
    V2_FEE_BPS: String(deployed.v2.feeBps),
  }
}

/**
 * The table's settings of the local stage: its devnet's chain id and RPC port, no confirmations,
 * and Uniswap V2's fee; the contracts are the ones `npm start` deployed (its variables).
 */
function devnetSettings(entry: NetworkEntry): Record<string, string> {
  return {
    CHAIN_ID: String(entry.devnet.chainId),
    RPC_URL: `http://127.0.0.1:${entry.devnet.port}`,
    CONFIRMATIONS: '0',
    V2_FEE_BPS: String(DEVNET_V2_FEE_BPS),
  }
}

/** The network's settings from the table, keyed by variable (`ETHEREUM_CHAIN_ID`). */
export function networkSettings(network: string, stage: string): Record<string, string> {
  const entry = (NETWORK_ENTRIES as Record<string, NetworkEntry>)[network]
  if (!entry) throw new Error(`${network} is not in the network table (lib/networks.ts)`)
  const settings = stage === 'local' ? devnetSettings(entry) : deployedSettings(entry)
  const prefix = network.toUpperCase()
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [`${prefix}_${name}`, value]),
  )
}
