import { DEFAULT_NETWORKS, NETWORK_ENTRIES, NETWORK_TABLE, type NetworkEntry } from '../networks'
import {
  functionName,
  NETWORK_OPERATIONS,
  type NetworkOperation,
  operationPath,
  operationsOf,
} from './operations'
import { rpcUrlParameterOf } from './rpcUrlParameters'

// What `npm run networks` writes from the network table (lib/networks.ts, DECISIONS §9.5): each
// network's handler and doc files under functions/ (one line calling its operation's route and
// doc, lib/networks/operations.ts), and the blocks of serverless.yml that name networks: its
// settings (params of the local and deployed stages, environment, RPC URL parameter) and its
// functions. Everything else in serverless.yml is written by hand; a generated block sits
// between two marker lines, `# <networks: NAME>` and `# </networks: NAME>`, at its indentation.
// Pure: the CLI (writeNetworkFilesCli.ts) writes, tests/unit/lib/networks/networkFiles.test.ts
// fails when what is committed is not what this gives.

type Network = keyof typeof NETWORK_TABLE

const NETWORK_NAMES = Object.keys(NETWORK_TABLE) as Network[]
const HEADER = (source: string) =>
  `// Written by \`npm run networks\` from the network table (lib/networks.ts), not by hand: the\n// ${source} it calls is where to edit.\n`

/** The handler file of an operation on a network, and its doc file, by path. */
export function handlerFiles(): Record<string, string> {
  const files: Record<string, string> = {}
  for (const network of NETWORK_NAMES) {
    for (const operation of operationsOf(NETWORK_ENTRIES[network].routes)) {
      const stem = `functions/${operation.area}/${functionName(operation.name, network)}`
      const route = `${operation.name}Route`
      const doc = `${operation.name}Doc`
      files[`${stem}.ts`] =
        `${HEADER(`route, lib/networkRoutes/${route}.ts,`)}import { ${route} } from '../../lib/networkRoutes/${route}'\n\n` +
        `export const handler = ${route}('${network}')\n`
      files[`${stem}.doc.ts`] =
        `${HEADER('doc, lib/openapi/networkRouteDocs.ts,')}import { ${doc} } from '../../lib/openapi/networkRouteDocs'\n\n` +
        `export const doc = ${doc}('${network}')\n`
    }
  }
  return files
}

/**
 * Whether a path is shaped like a network's handler or doc file (an operation's name, then a
 * capitalized name): the ones no entry of the table gives are stale.
 */
export function looksLikeNetworkHandlerFile(path: string): boolean {
  const operations = NETWORK_OPERATIONS.map((operation) => operation.name).join('|')
  return new RegExp(`^functions/\\w+/(${operations})[A-Z]\\w*(\\.doc)?\\.ts$`).test(path)
}

const quoted = (value: string | number) => `'${value}'`
const upper = (network: string) => network.toUpperCase()

/** A network's settings, named as serverless.yml's params and the functions' environment. */
function settings(entry: NetworkEntry): Array<[string, string, string | undefined]> {
  // [param suffix, variable suffix, deployed value (undefined: none, '' on deployed stages)]
  const { deployed } = entry
  return [
    ['ChainId', 'CHAIN_ID', String(deployed.chainId)],
    ['RpcUrl', 'RPC_URL', ''],
    ['Router', 'ROUTER', deployed.v2.router],
    ['Factory', 'FACTORY', deployed.v2.factory],
    ['WrappedNative', 'WRAPPED_NATIVE', deployed.wrappedNative],
    ['UsdStablecoin', 'USD_STABLECOIN', deployed.usdStablecoin],
    ['V3Factory', 'V3_FACTORY', deployed.v3.factory],
    ['V3PoolDeployer', 'V3_POOL_DEPLOYER', deployed.v3.poolDeployer],
    ['V3PoolInitCodeHash', 'V3_POOL_INIT_CODE_HASH', deployed.v3.poolInitCodeHash],
    ['V3FeeTiers', 'V3_FEE_TIERS', deployed.v3.feeTiers.join(',')],
    ['SwapRouter', 'SWAP_ROUTER', deployed.swapRouter],
    ['ConnectorTokens', 'CONNECTOR_TOKENS', deployed.connectorTokens.join(',')],
    ...(deployed.baseTokens.length > 0
      ? [['BaseTokens', 'BASE_TOKENS', deployed.baseTokens.join(',')] as [string, string, string]]
      : []),
    ['Confirmations', 'CONFIRMATIONS', String(deployed.confirmations)],
  ]
}

/** The local stage's values: the devnet `npm start` runs (it sets every address itself). */
function localValue(network: Network, variable: string): string {
  const { devnet } = NETWORK_ENTRIES[network]
  if (variable === 'CHAIN_ID') return String(devnet.chainId)
  if (variable === 'RPC_URL') return `http://127.0.0.1:${devnet.port}`
  if (variable === 'CONFIRMATIONS') return '0'
  return ''
}

function localParams(): string[] {
  return [
    `networks: \${env:NETWORKS, ${quoted(DEFAULT_NETWORKS.join(','))}}`,
    ...NETWORK_NAMES.flatMap((network) => [
      `${network}RpcUrlParameter: ''`,
      ...settings(NETWORK_ENTRIES[network]).map(
        ([param, variable]) =>
          `${network}${param}: \${env:${upper(network)}_${variable}, ${quoted(localValue(network, variable))}}`,
      ),
    ]),
  ]
}

function deployedParams(): string[] {
  return [
    '# The networks the stage serves (NETWORKS): the functions of the others are left out.',
    `networks: \${env:NETWORKS, ${quoted(DEFAULT_NETWORKS.join(','))}}`,
    ...NETWORK_NAMES.flatMap((network) => {
      const entry = NETWORK_ENTRIES[network]
      return [
        `# ${entry.title} (chain ${entry.deployed.chainId}): ${dexLine(entry)}.`,
        `${network}RpcUrlParameter: \${self:custom.parameters.${rpcUrlParameterOf(network)}}`,
        ...settings(entry).map(([param, , value]) => `${network}${param}: ${quoted(value ?? '')}`),
      ]
    }),
  ]
}

function dexLine(entry: NetworkEntry): string {
  const names = { 'uniswap-v2': 'Uniswap V2', 'pancakeswap-v2': 'PancakeSwap V2' }
  const v3Names = { 'uniswap-v3': 'Uniswap V3', 'pancakeswap-v3': 'PancakeSwap V3' }
  return `${names[entry.deployed.v2.flavour]}, ${v3Names[entry.deployed.v3.flavour]} and a SwapRouter02-compatible router`
}

function rpcParameters(): string[] {
  return NETWORK_NAMES.map(
    (network) =>
      `${rpcUrlParameterOf(network)}: /\${self:service}/\${sls:stage}/${network}-rpc-url`,
  )
}

function environment(): string[] {
  return [
    'NETWORKS: ${param:networks}',
    ...NETWORK_NAMES.flatMap((network) => [
      ...settings(NETWORK_ENTRIES[network]).flatMap(([param, variable]) => [
        `${upper(network)}_${variable}: \${param:${network}${param}}`,
        ...(variable === 'RPC_URL'
          ? [`${upper(network)}_RPC_URL_PARAMETER: \${param:${network}RpcUrlParameter}`]
          : []),
      ]),
    ]),
  ]
}

function functionBlock(operation: NetworkOperation, network: Network): string[] {
  const name = functionName(operation.name, network)
  const parameters = [...(operation.signedIn ? ['jwtSecret'] : []), rpcUrlParameterOf(network)]
  return [
    `${name}:`,
    `  handler: functions/${operation.area}/${name}.handler`,
    `  network: ${network}`,
    '  access:',
    ...(operation.table.length > 0 ? [`    table: [${operation.table.join(', ')}]`] : []),
    ...(operation.writeKeys?.length
      ? [`    writeKeys: [${operation.writeKeys.map((key) => `'${key}'`).join(', ')}]`]
      : []),
    `    parameters: [${parameters.join(', ')}]`,
    ...(operation.moneyMoving
      ? ['  timeout: 28', '  reservedConcurrency: ${param:executingConcurrency}']
      : []),
    '  events:',
    '    - httpApi:',
    `        method: ${operation.method}`,
    `        path: ${operationPath(operation.name, network)}`,
  ]
}

function functions(): string[] {
  return NETWORK_NAMES.flatMap((network) =>
    operationsOf(NETWORK_ENTRIES[network].routes).flatMap((operation) =>
      functionBlock(operation, network),
    ),
  )
}

function moneyMoving(): string[] {
  return NETWORK_NAMES.flatMap((network) =>
    operationsOf(NETWORK_ENTRIES[network].routes)
      .filter((operation) => operation.moneyMoving)
      .map((operation) => `- ${functionName(operation.name, network)}`),
  )
}

/** Each generated block of serverless.yml by its marker name, one line per entry, unindented. */
export function serverlessBlocks(): Record<string, string[]> {
  return {
    'local params': localParams(),
    'deployed params': deployedParams(),
    'money-moving functions': moneyMoving(),
    'RPC URL parameters': rpcParameters(),
    environment: environment(),
    functions: functions(),
  }
}

const MARKER = /^( *)# <networks: ([^>]+)>.*$/

/** serverless.yml with every generated block rewritten; throws on a missing or unclosed one. */
export function withServerlessBlocks(yaml: string): string {
  const blocks = serverlessBlocks()
  const lines = yaml.split('\n')
  const out: string[] = []
  const seen = new Set<string>()
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? ''
    out.push(line)
    const match = MARKER.exec(line)
    if (!match) continue
    const [, indent = '', name = ''] = match
    const block = blocks[name]
    if (!block) throw new Error(`serverless.yml names an unknown generated block "${name}"`)
    const end = lines.findIndex(
      (candidate, at) => at > index && candidate === `${indent}# </networks: ${name}>`,
    )
    if (end < 0) throw new Error(`serverless.yml: the block "${name}" has no closing marker`)
    out.push(...block.map((entry) => `${indent}${entry}`))
    out.push(lines[end] ?? '')
    index = end
    seen.add(name)
  }
  const missing = Object.keys(blocks).filter((name) => !seen.has(name))
  if (missing.length > 0) {
    throw new Error(`serverless.yml lacks the generated blocks: ${missing.join(', ')}`)
  }
  return out.join('\n')
}
