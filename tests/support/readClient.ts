import { type Chain, createPublicClient, http, type PublicClient, type Transport } from 'viem'
import { chainOf } from '../../lib/chain/clients'
import { loadChainConfig } from '../../lib/config'
import type { NetworkName } from '../../lib/networkNames'

const clients: Partial<Record<NetworkName, PublicClient<Transport, Chain>>> = {}

/**
 * A client for tests that read a devnet directly, with every public action attached. The service
 * itself calls tree-shakable actions on a bare client (lib/chain/clients.ts).
 */
export function readClient(network: NetworkName): PublicClient<Transport, Chain> {
  const config = loadChainConfig(network)
  return (clients[network] ??= createPublicClient({
    chain: chainOf(config),
    cacheTime: 0,
    transport: http(config.rpcUrl),
  }))
}
