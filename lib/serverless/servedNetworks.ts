// The networks a stage serves (DECISIONS §9.5): serverless.yml declares the functions and
// settings of every network of the table (`npm run networks`), and the stage's NETWORKS setting
// (custom.servedNetworks) says which it serves. Before any command reads the service (packaging,
// deploying, serverless offline), the functions of the other networks are left out with their
// settings (their `<NET>_*` variables: Lambda takes 4 KB of them a function), and the RPC URL
// parameters a function reads of every served network (`servedRpcUrls` in its `access:`) are
// named. Used by deployRules.ts.
import { NETWORK_TABLE } from '../networks'
import { expandRpcUrlParameters } from '../networks/rpcUrlParameters'
import { parseServedNetworks } from '../networks/servedNetworks'
import type { Serverless } from './serverlessTypes'

const KNOWN = Object.keys(NETWORK_TABLE)

/** Leaves out what belongs to networks the stage does not serve; returns the served ones. */
export function keepServedNetworks(serverless: Serverless): string[] {
  const { service } = serverless
  let served: string[]
  try {
    const value = service.custom?.servedNetworks
    served = parseServedNetworks(typeof value === 'string' ? value : undefined)
  } catch (error) {
    throw new serverless.classes.Error(
      `${(error as Error).message} (see docs/operations.md, A network).`,
    )
  }
  const dropped = KNOWN.filter((name) => !served.includes(name))
  const functions = service.functions ?? {}
  for (const [name, fn] of Object.entries(functions)) {
    if (fn.network !== undefined && !served.includes(fn.network)) {
      delete functions[name]
      continue
    }
    if (fn.access?.parameters) {
      fn.access.parameters = expandRpcUrlParameters(fn.access.parameters, served)
    }
  }
  const prefixes = dropped.map((name) => `${name.toUpperCase()}_`)
  const environment = service.provider.environment ?? {}
  for (const variable of Object.keys(environment)) {
    if (prefixes.some((prefix) => variable.startsWith(prefix))) delete environment[variable]
  }
  for (const group of Object.values(service.custom?.operations?.durationAlarms ?? {})) {
    group.functions = group.functions.filter((name) => name in functions)
  }
  return served
}
