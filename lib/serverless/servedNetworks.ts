// The networks a stage serves (DECISIONS §9.5). serverless.yml declares each network operation
// once (`perNetwork: true`); the stage's NETWORKS setting (custom.servedNetworks) says which
// networks of the table it serves. Before any command reads the service (packaging, deploying,
// serverless offline), each operation's block becomes a function per served network
// (lib/networks/networkFunctions.ts), the RPC URL parameters a function reads of every served
// network (`servedRpcUrls` in its `access:`) are named, and the functions' environment gets what
// the table cannot give: on a deployed stage the SSM parameter of each network's RPC URLs; on
// the local stage the `<NET>_*` variables `npm start` set (its devnets' contracts). Everything
// else a function reads of a network is its table entry (lib/config/networkSettings.ts).
import { chainVariables } from '../config/chainSchema'
import { NETWORK_NAMES, parseServedNetworks } from '../networkNames'
import { expandNetworkFunctionNames, expandNetworkFunctions } from '../networks/networkFunctions'
import { expandRpcUrlParameters, rpcUrlParameterOf } from '../networks/rpcUrlParameters'

import type { FunctionObject, Serverless } from './serverlessTypes'

function servedNetworksOf(serverless: Serverless) {
  try {
    const value = serverless.service.custom?.servedNetworks
    return parseServedNetworks(typeof value === 'string' ? value : undefined)
  } catch (error) {
    throw new serverless.classes.Error(
      `${(error as Error).message} (see docs/operations.md, A network).`,
    )
  }
}

/** Names each network's RPC URL parameter in custom.parameters (for every network of the table). */
function nameRpcUrlParameters(serverless: Serverless): Record<string, string> {
  const { service } = serverless
  const custom = (service.custom ??= {})
  const parameters = (custom.parameters ??= {})
  for (const network of NETWORK_NAMES) {
    parameters[rpcUrlParameterOf(network)] ??=
      `/${service.service}/${service.provider.stage}/${network}-rpc-url`
  }
  return parameters
}

/** Each served network's variables: its RPC URL parameter, or on `local` its devnet's. */
function networkEnvironment(serverless: Serverless, served: readonly string[]) {
  const parameters = nameRpcUrlParameters(serverless)
  const local = serverless.service.provider.stage === 'local'
  const environment: Record<string, unknown> = {}
  for (const network of served) {
    if (!local) {
      environment[`${network.toUpperCase()}_RPC_URL_PARAMETER`] =
        parameters[rpcUrlParameterOf(network)]
      continue
    }
    // The devnets' contracts `npm start` deployed, and their RPC URLs.
    for (const variable of chainVariables(network)) {
      const value = process.env[variable]
      if (value !== undefined && value !== '') environment[variable] = value
    }
  }
  return environment
}

/** Makes the service the served networks' and returns their names. */
export function keepServedNetworks(serverless: Serverless): string[] {
  const { service } = serverless
  const served = servedNetworksOf(serverless)
  const declared = service.functions ?? {}
  for (const group of Object.values(service.custom?.operations?.durationAlarms ?? {})) {
    group.functions = expandNetworkFunctionNames(group.functions, declared, served)
  }
  const functions: Record<string, FunctionObject> = expandNetworkFunctions(declared, served)
  for (const [name, fn] of Object.entries(functions)) {
    if (fn.network !== undefined && !served.includes(fn.network as (typeof served)[number])) {
      delete functions[name]
      continue
    }
    if (fn.access?.parameters) {
      fn.access.parameters = expandRpcUrlParameters(fn.access.parameters, served)
    }
  }
  // In place: the framework and its plugins hold the object.
  for (const name of Object.keys(declared)) delete declared[name]
  Object.assign(declared, functions)
  service.functions = declared
  // Variables of networks the stage does not serve (Lambda takes 4 KB of them a function).
  const dropped = NETWORK_NAMES.filter((name) => !served.includes(name))
  const prefixes = dropped.map((name) => `${name.toUpperCase()}_`)
  const environment = (service.provider.environment ??= {})
  for (const variable of Object.keys(environment)) {
    if (prefixes.some((prefix) => variable.startsWith(prefix))) delete environment[variable]
  }
  Object.assign(environment, networkEnvironment(serverless, served))
  for (const group of Object.values(service.custom?.operations?.durationAlarms ?? {})) {
    group.functions = group.functions.filter((name) => name in declared)
  }
  return served
}
