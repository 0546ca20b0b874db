import type { Context } from 'aws-lambda'
import type { HttpEvent } from '../../lib/http/types'
import { isNative } from '../../lib/constants'
import { NETWORKS, type NetworkName } from '../../lib/networkNames'
import { networkRoute } from '../../lib/networkRoutes/networkRoutes'
import { functionName, networkOperation, type OperationName } from '../../lib/networks/operations'

// A network's routes through their real handlers: what the file under functions/ that
// serverless.yml names for the operation builds for the network its function serves
// (lib/networkRoutes/networkRoutes.ts), whichever networks the table holds, so a test keyed by
// network runs on each.

export type RouteHandler = (event: HttpEvent, context: Context) => Promise<unknown>

const built = new Map<string, RouteHandler>()

/** The handler of `operation` on `network`; fails loudly where the network has no such route. */
export function networkHandler(
  operation: OperationName,
  network: NetworkName,
): Promise<RouteHandler> {
  const name = functionName(operation, network)
  if (!networkOperation(operation).servedOn(NETWORKS[network].routes)) {
    return Promise.reject(new Error(`${network} has no ${operation} route (${name})`))
  }
  let handler = built.get(name)
  if (!handler) {
    handler = networkRoute(operation, network)
    built.set(name, handler)
  }
  return Promise.resolve(handler)
}

/**
 * The route a swap takes on a network: the native swap route where the network has one and the
 * native coin is a side (altchain's shape), else the tokens route.
 */
export function swapOperation(
  network: NetworkName,
  body: { address0: `0x${string}`; address1: `0x${string}` },
): 'swapNative' | 'swapTokens' {
  const native = isNative(body.address0) || isNative(body.address1)
  return native && NETWORKS[network].routes.nativeSwapRoute ? 'swapNative' : 'swapTokens'
}
