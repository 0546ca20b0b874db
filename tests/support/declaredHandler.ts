import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { NetworkName } from '../../lib/networkNames'
import { networkRoute } from '../../lib/networkRoutes/networkRoutes'
import type { DeclaredFunction } from '../../lib/openapi/declaredFunctions'

/**
 * The handler a function of serverless.yml runs: a network operation's route built for the
 * function's network (its file reads NETWORK, which one process cannot set for every network),
 * else its file's export.
 */
export async function declaredHandler(fn: DeclaredFunction): Promise<unknown> {
  if (fn.operation && fn.network) return networkRoute(fn.operation, fn.network as NetworkName)
  const module = (await import(pathToFileURL(resolve(fn.entry)).href)) as { handler: unknown }
  return module.handler
}
