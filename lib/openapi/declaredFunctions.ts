import { readFileSync } from 'node:fs'
import { NETWORK_NAMES } from '../networkNames'
import { expandNetworkFunctions, type NetworkFunctionBlock } from '../networks/networkFunctions'
import { capitalized, type OperationName } from '../networks/operations'
import { expandRpcUrlParameters } from '../networks/rpcUrlParameters'

export interface DeclaredFunction {
  name: string
  /** e.g. functions/networks/listNetworks.ts */
  entry: string
  http: boolean
  /** The HTTP API route, for an HTTP function: method in capitals and path template. */
  route?: { method: string; path: string }
  /**
   * What it declares under `access:` (its IAM role; the template test checks the table actions
   * against its bundle): DynamoDB actions and SSM parameter names, `servedRpcUrls` spelled out
   * for every network of the table (a stage grants those of the networks it serves).
   */
  access: { table: string[]; parameters: string[] }
  /** The network of a per-network route (`network:`). */
  network?: string
  /** The network operation whose block gave it (`quote` for quoteEthereum). */
  operation?: OperationName
}

interface Block extends NetworkFunctionBlock {
  entry: string
  access: { table: string[]; parameters: string[] }
}

const listAt = (block: string, key: string): string[] =>
  (new RegExp(`\\n {6}${key}: \\[([^\\]]*)\\]`).exec(block)?.[1] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

function parseBlock(block: string): [string, Block] {
  const name = block.slice(0, block.indexOf(':'))
  const handler = /handler: (\S+)\.handler/.exec(block)?.[1] ?? ''
  const method = /\n {10}method: (\w+)/.exec(block)?.[1]
  const path = /\n {10}path: (\S+)/.exec(block)?.[1]
  const network = /\n {4}network: (\w+)/.exec(block)?.[1]
  const http = block.includes('httpApi:')
  return [
    name,
    {
      entry: `${handler}.ts`,
      perNetwork: /\n {4}perNetwork: true/.test(block),
      events: http && method && path ? [{ httpApi: { method, path } }] : [],
      access: { table: listAt(block, 'table'), parameters: listAt(block, 'parameters') },
      ...(network && { network }),
    },
  ]
}

/**
 * The functions serverless.yml declares, read from its `handler:` lines and `httpApi:` events,
 * each network operation's block made a function per network of the table as the deploy rules
 * make it for the networks a stage serves (lib/networks/networkFunctions.ts).
 */
export function declaredFunctions(file = 'serverless.yml'): DeclaredFunction[] {
  const yaml = readFileSync(file, 'utf8')
  const blocks = yaml.split(/\n {2}(?=[A-Za-z]\w*:\n {4}handler:)/).slice(1)
  const functions = expandNetworkFunctions(
    Object.fromEntries(blocks.map(parseBlock)),
    NETWORK_NAMES,
  )
  return Object.entries(functions).map(([name, fn]) => {
    const httpApi = fn.events?.[0]?.httpApi as { method: string; path: string } | undefined
    const operation = fn.network && name.slice(0, -capitalized(fn.network).length)
    return {
      name,
      entry: fn.entry,
      http: httpApi !== undefined,
      ...(httpApi && { route: { method: httpApi.method.toUpperCase(), path: httpApi.path } }),
      access: {
        table: fn.access.table,
        parameters: expandRpcUrlParameters(fn.access.parameters, NETWORK_NAMES),
      },
      ...(fn.network && { network: fn.network, operation: operation as OperationName }),
    }
  })
}
