import { NETWORK_ENTRIES } from '../networks'
import type { NetworkName } from '../networkNames'
import { functionName, networkOperation, type OperationName, operationPath } from './operations'
import { rpcUrlParameterOf } from './rpcUrlParameters'

// A network operation is one block of serverless.yml (`perNetwork: true`, named after the
// operation, its handler `functions/<area>/<operation>.ts`): the deploy rules
// (lib/serverless/servedNetworks.ts) and the readers of serverless.yml
// (lib/openapi/declaredFunctions.ts) make it one function per network, so each network keeps a
// function, a role, alarms and throttles of its own while a network added to the table needs no
// file under functions/ and no line of serverless.yml. Pure: it copies, never edits in place.

/** In a block's `access.parameters`: the RPC URL parameter of the function's network. */
export const NETWORK_RPC_URL = 'networkRpcUrl'

/** What of a function block the expansion reads and writes (serverless.yml's shape). */
export interface NetworkFunctionBlock {
  /** The deployed name, `<service>-<stage>-<function>`, where the framework set it already. */
  name?: string
  perNetwork?: boolean
  network?: string
  environment?: Record<string, unknown>
  access?: { parameters?: string[] }
  events?: Array<Record<string, unknown>>
}

/** The function an operation's block gives on one network: `quoteEthereum`. */
export function networkFunction<Block extends NetworkFunctionBlock>(
  operation: OperationName,
  block: Block,
  network: NetworkName,
): [string, Block] {
  const { perNetwork: _perNetwork, ...rest } = structuredClone(block)
  const name = functionName(operation, network)
  const { method } = networkOperation(operation)
  const parameters = rest.access?.parameters?.map((parameter) =>
    parameter === NETWORK_RPC_URL ? rpcUrlParameterOf(network) : parameter,
  )
  const fn = {
    ...rest,
    ...(rest.name?.endsWith(`-${operation}`) && {
      name: `${rest.name.slice(0, -operation.length)}${name}`,
    }),
    network,
    environment: { ...rest.environment, NETWORK: network },
    ...(rest.access && { access: { ...rest.access, ...(parameters && { parameters }) } }),
    events: [{ httpApi: { method, path: operationPath(operation, network) } }],
  } as unknown as Block
  return [name, fn]
}

/**
 * Every function of `functions` with each operation's block made a function per network of
 * `networks` whose shape has the route (DECISIONS §4: the native swap routes are altchain's
 * shape), network by network in the table's order, where the first block stood.
 */
export function expandNetworkFunctions<Block extends NetworkFunctionBlock>(
  functions: Record<string, Block>,
  networks: readonly NetworkName[],
): Record<string, Block> {
  const blocks = Object.entries(functions).filter(([, block]) => block.perNetwork === true)
  const expanded = networks.flatMap((network) =>
    blocks
      .filter(([operation]) =>
        networkOperation(operation).servedOn(NETWORK_ENTRIES[network].routes),
      )
      .map(([operation, block]) => networkFunction(operation as OperationName, block, network)),
  )
  const result: Record<string, Block> = {}
  for (const [name, block] of Object.entries(functions)) {
    if (block.perNetwork !== true) {
      result[name] = block
    } else if (name === blocks[0]?.[0]) {
      Object.assign(result, Object.fromEntries(expanded))
    }
  }
  return result
}

/** A list of function names (an alarm's group) with each operation's block named by its functions. */
export function expandNetworkFunctionNames(
  names: readonly string[],
  functions: Record<string, NetworkFunctionBlock>,
  networks: readonly NetworkName[],
): string[] {
  return names.flatMap((name) => {
    if (functions[name]?.perNetwork !== true) return [name]
    return networks
      .filter((network) => networkOperation(name).servedOn(NETWORK_ENTRIES[network].routes))
      .map((network) => functionName(name as OperationName, network))
  })
}
