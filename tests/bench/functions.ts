import { readFileSync } from 'node:fs'

export interface DeclaredFunction {
  name: string
  /** e.g. functions/networks/listNetworks.ts */
  entry: string
  http: boolean
}

/** The functions serverless.yml declares, read from its `handler:` lines. */
export function declaredFunctions(): DeclaredFunction[] {
  const yaml = readFileSync('serverless.yml', 'utf8')
  const blocks = yaml.split(/\n {2}(?=[A-Za-z]\w*:\n {4}handler:)/).slice(1)
  return blocks.map((block) => {
    const name = block.slice(0, block.indexOf(':'))
    const handler = /handler: (\S+)\.handler/.exec(block)?.[1] ?? ''
    return { name, entry: `${handler}.ts`, http: block.includes('httpApi:') }
  })
}
