import { readFileSync } from 'node:fs'
import { NETWORK_TABLE } from '../networks'
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
}

const listAt = (block: string, key: string): string[] =>
  (new RegExp(`\\n {6}${key}: \\[([^\\]]*)\\]`).exec(block)?.[1] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

/** The functions serverless.yml declares, read from its `handler:` lines and `httpApi:` events. */
export function declaredFunctions(file = 'serverless.yml'): DeclaredFunction[] {
  const yaml = readFileSync(file, 'utf8')
  const blocks = yaml.split(/\n {2}(?=[A-Za-z]\w*:\n {4}handler:)/).slice(1)
  return blocks.map((block) => {
    const name = block.slice(0, block.indexOf(':'))
    const handler = /handler: (\S+)\.handler/.exec(block)?.[1] ?? ''
    const http = block.includes('httpApi:')
    const method = /\n {10}method: (\w+)/.exec(block)?.[1]
    const path = /\n {10}path: (\S+)/.exec(block)?.[1]
    const network = /\n {4}network: (\w+)/.exec(block)?.[1]
    return {
      name,
      entry: `${handler}.ts`,
      http,
      ...(http && method && path && { route: { method: method.toUpperCase(), path } }),
      access: {
        table: listAt(block, 'table'),
        parameters: expandRpcUrlParameters(listAt(block, 'parameters'), Object.keys(NETWORK_TABLE)),
      },
      ...(network && { network }),
    }
  })
}
