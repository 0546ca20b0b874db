import { readFileSync } from 'node:fs'

export interface DeclaredFunction {
  name: string
  /** e.g. functions/networks/listNetworks.ts */
  entry: string
  http: boolean
  /** The HTTP API route, for an HTTP function: method in capitals and path template. */
  route?: { method: string; path: string }
}

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
    return {
      name,
      entry: `${handler}.ts`,
      http,
      ...(http && method && path && { route: { method: method.toUpperCase(), path } }),
    }
  })
}
