import { type Chain, type Client, createClient, defineChain, http, type Transport } from 'viem'
import { type ChainConfig, loadChainConfig, type NetworkName } from '../config'

// Bounded so a dead or silent node becomes a 502 within 3 s rather than a hang: two attempts of
// 1.2 s and a short pause between them. A healthy node answers in milliseconds.
export const RPC_TIMEOUT_MS = 1_200
const RPC_RETRY_COUNT = 1
const RPC_RETRY_DELAY_MS = 50

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
      retryDelay: RPC_RETRY_DELAY_MS,
      batch: true,
    }),
  })
}

const clients: Partial<Record<NetworkName, ChainClient>> = {}

/** The public client of a network, created once per container on first use. */
export function publicClient(network: NetworkName): ChainClient {
  return (clients[network] ??= createChainClient(loadChainConfig(network)))
}
