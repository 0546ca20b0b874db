import { type Chain, type Client, createClient, defineChain, http, type Transport } from 'viem'
import { type ChainConfig, loadChainConfig, type NetworkName } from '../config'

// Bounded so a dead node becomes a prompt 502 rather than a hang.
const RPC_TIMEOUT_MS = 2_500
const RPC_RETRY_COUNT = 1

export function chainOf(config: ChainConfig): Chain {
  return defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: {
      name: config.network === 'ethereum' ? 'Ether' : 'Native coin',
      symbol: config.network === 'ethereum' ? 'ETH' : 'NATIVE',
      decimals: 18,
    },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  })
}

/**
 * A bare client for one network's configuration; no network call happens here. Callers use the
 * tree-shakable actions of 'viem/actions' (readContract(client, ...)): a public client would carry
 * every action into every function's bundle, about 100 KB more for a quote.
 */
export type ChainClient = Client<Transport, Chain>

export function createChainClient(config: ChainConfig): ChainClient {
  return createClient({
    chain: chainOf(config),
    // A warm container must not answer from a block number cached seconds ago.
    cacheTime: 0,
    transport: http(config.rpcUrl, {
      timeout: RPC_TIMEOUT_MS,
      retryCount: RPC_RETRY_COUNT,
      batch: true,
    }),
  })
}

const clients: Partial<Record<NetworkName, ChainClient>> = {}

/** The public client of a network, created once per container on first use. */
export function publicClient(network: NetworkName): ChainClient {
  return (clients[network] ??= createChainClient(loadChainConfig(network)))
}
