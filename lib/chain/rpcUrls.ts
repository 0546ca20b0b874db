import { getSecureParameter } from '../aws/secureParameter'
import { type ChainConfig, isRpcUrlList, loadCoreConfig, rpcUrlsOf } from '../config'
import type { NetworkName } from '../networkNames'

// Deployed stages keep each network's RPC URLs (which carry provider keys) in an SSM
// SecureString, read once per container on the first RPC call, never at import: a cold start
// that makes no chain call makes no SSM call either.

const cached: Partial<Record<NetworkName, Promise<string[]>>> = {}

export class RpcUrlsUnavailable extends Error {
  override name = 'RpcUrlsUnavailable'
}

async function readParameter(network: NetworkName, parameter: string): Promise<string[]> {
  const core = loadCoreConfig()
  const value = await getSecureParameter(parameter, {
    region: core.region,
    endpoint: core.ssmEndpoint,
  })
  // The value is never quoted: it is the secret.
  if (!value || !isRpcUrlList(value)) {
    throw new RpcUrlsUnavailable(`the ${network} RPC URL parameter is empty or not a URL list`)
  }
  return rpcUrlsOf(value)
}

/** A network's RPC URLs in order of preference: from the environment, or its SSM parameter. */
export function rpcUrlsFor(config: ChainConfig): Promise<string[]> {
  const parameter = config.rpcUrlParameter
  if (config.rpcUrls.length > 0 || !parameter) return Promise.resolve(config.rpcUrls)
  return (cached[config.network] ??= readParameter(config.network, parameter).catch(
    (error: unknown) => {
      // A failed read is tried again by the next request, not remembered for the container.
      delete cached[config.network]
      throw error
    },
  ))
}
