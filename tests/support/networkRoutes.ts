import type { Context } from 'aws-lambda'
import type { HttpEvent } from '../../lib/http/types'
import { isNative } from '../../lib/constants'
import { NETWORKS, type NetworkName } from '../../lib/networkNames'
import { functionName, NETWORK_OPERATIONS, type OperationName } from '../../lib/networks/operations'

// A network's routes through their real handlers: the file under functions/ that serverless.yml
// names for the operation on the network (lib/networks/operations.ts), whichever networks the
// table holds, so a test keyed by network runs on each.

export type RouteHandler = (event: HttpEvent, context: Context) => Promise<unknown>

const loaded = new Map<string, Promise<RouteHandler>>()

/** The handler of `operation` on `network`; fails loudly where the network has no such route. */
export function networkHandler(
  operation: OperationName,
  network: NetworkName,
): Promise<RouteHandler> {
  const name = functionName(operation, network)
  let handler = loaded.get(name)
  if (!handler) {
    const found = NETWORK_OPERATIONS.find((candidate) => candidate.name === operation)
    if (!found) throw new Error(`no network operation ${operation}`)
    handler = (
      import(`../../functions/${found.area}/${name}.ts`) as Promise<{ handler?: RouteHandler }>
    ).then((module) => {
      if (!module.handler) throw new Error(`functions/${found.area}/${name}.ts exports no handler`)
      return module.handler
    })
    loaded.set(name, handler)
  }
  return handler
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
