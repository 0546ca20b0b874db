import {
  type Chain,
  type Client,
  type EIP1193RequestFn,
  createClient,
  createTransport,
  defineChain,
  type Transport,
} from 'viem'
import { type ChainConfig, loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { NETWORKS } from '../networkNames'
import { isNodeFailure } from './chainError'
import { nodeHttp, type NodeHttpTransportConfig } from './nodeHttpTransport'
import { rpcUrlsFor } from './rpcUrls'

// Bounded so a dead or silent node becomes a 502 within 3 s rather than a hang: two attempts of
// 1.2 s and a short pause between them. A healthy node answers in milliseconds.
export const RPC_TIMEOUT_MS = 1_200
const RPC_RETRY_COUNT = 1
const RPC_RETRY_DELAY_MS = 50

export function chainOf(config: ChainConfig): Chain {
  return defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { ...NETWORKS[config.network].nativeCurrency, decimals: 18 },
    // Empty on deployed stages, whose URLs come from SSM at the first call (never in a Chain).
    rpcUrls: { default: { http: config.rpcUrl ? [config.rpcUrl] : [] } },
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
    transport: config.rpcUrl
      ? transportFor(
          config.rpcUrls.length > 1 ? config.rpcUrls : [config.rpcUrl],
          config.rpcBatchMax,
        )
      : deferredTransport(config),
  })
}

function transportFor(urls: readonly string[], batchSize: number): Transport {
  return urls.length > 1
    ? failover(urls, { timeout: RPC_TIMEOUT_MS, batch: true, batchSize })
    : nodeHttp(urls[0] ?? '', {
        timeout: RPC_TIMEOUT_MS,
        retryCount: RPC_RETRY_COUNT,
        retryDelay: RPC_RETRY_DELAY_MS,
        batch: true,
        batchSize,
      })
}

/**
 * A transport whose URLs come from the network's SSM parameter (deployed stages), read at the
 * first request and kept for the container; the transport it then builds is the one `local` uses.
 */
function deferredTransport(config: ChainConfig): Transport {
  return (parameters) => {
    let inner: Promise<ReturnType<Transport>> | undefined
    return createTransport({
      key: 'deferred',
      name: 'Deferred',
      type: 'deferred',
      retryCount: 0,
      timeout: parameters.timeout,
      // Options too: the deposit indexer asks some calls without retries.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc refuses it uncast (viem's generic EIP1193RequestFn)
      request: (async (
        request: { method: string; params?: unknown },
        options?: Parameters<EIP1193RequestFn>[1],
      ) => {
        inner ??= rpcUrlsFor(config)
          .then((urls) => transportFor(urls, config.rpcBatchMax)(parameters))
          .catch((error: unknown) => {
            inner = undefined
            throw error
          })
        return (await inner).request(request, options)
      }) as EIP1193RequestFn,
    })
  }
}

/** How long a URL that failed goes to the back of the line. */
export const DEMOTION_MS = 60_000

/**
 * Several RPC URLs of one network (DECISIONS §7.2), tried in order for each request: a URL whose
 * node failed (refused, timed out, rate-limited, answered garbage) is demoted behind the healthy
 * ones for DEMOTION_MS, so a dead or frozen provider costs one timeout per container and minute,
 * not one per request. A revert is the contract's answer and is not failed over. Each URL gets
 * one attempt (no retry): the next URL is the retry. Not viem's `fallback`: without ranking it
 * asks a frozen URL on every request, and its ranking pings in the background and re-sorts the
 * list under a request in flight (docs/trading.md, "Provider limits and failover").
 */
export function failover(
  urls: readonly string[],
  options: Pick<NodeHttpTransportConfig, 'timeout' | 'batch' | 'batchSize'>,
): Transport {
  const demotedUntil = urls.map(() => 0)
  const transports = urls.map((url) => nodeHttp(url, { ...options, retryCount: 0 }))
  return ({ chain, timeout }) =>
    createTransport({
      key: 'failover',
      name: 'Failover',
      type: 'failover',
      retryCount: 0,
      timeout,
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc refuses it uncast (viem's generic EIP1193RequestFn)
      request: (async ({ method, params }: { method: string; params?: unknown }) => {
        const now = Date.now()
        const demoted = (index: number) => (demotedUntil[index] ?? 0) > now
        // Healthy URLs first, each group in the configured order (the sort is stable).
        const order = transports
          .map((transport, index) => ({ transport, index }))
          .sort((a, b) => Number(demoted(a.index)) - Number(demoted(b.index)))
        let lastError: unknown
        for (const { transport, index } of order) {
          try {
            return await transport({ chain, retryCount: 0 }).request({ method, params })
          } catch (error) {
            if (!isNodeFailure(error)) throw error
            demotedUntil[index] = Date.now() + DEMOTION_MS
            lastError = error
          }
        }
        throw lastError
      }) as EIP1193RequestFn,
    })
}

const clients: Partial<Record<NetworkName, ChainClient>> = {}

/** The public client of a network, created once per container on first use. */
export function publicClient(network: NetworkName): ChainClient {
  return (clients[network] ??= createChainClient(loadChainConfig(network)))
}
