import { createClient } from 'viem'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { chainOf, type ChainClient } from './clients'
import { nodeHttp } from './nodeHttpTransport'

// State at past blocks takes an archive node longer than the head's: a longer bound than the
// request path's 1.2 s, and one retry.
const ARCHIVE_TIMEOUT_MS = 10_000

const clients = new Map<NetworkName, ChainClient | undefined>()

/**
 * The client of a network's archive node (`<NET>_ARCHIVE_RPC_URL`), created once per container;
 * undefined when none is configured.
 */
export function archiveClient(network: NetworkName): ChainClient | undefined {
  if (!clients.has(network)) {
    const config = loadChainConfig(network)
    clients.set(
      network,
      config.archiveRpcUrl === undefined
        ? undefined
        : createClient({
            chain: chainOf(config),
            cacheTime: 0,
            transport: nodeHttp(config.archiveRpcUrl, {
              timeout: ARCHIVE_TIMEOUT_MS,
              retryCount: 1,
              retryDelay: 100,
              batch: true,
            }),
          }),
    )
  }
  return clients.get(network)
}
