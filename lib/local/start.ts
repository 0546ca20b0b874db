// `npm start`: the whole service on loopback until Ctrl-C. `--persist` keeps DynamoDB data
// under .data/ (git-ignored) instead of in memory; `--free-ports` lets the OS pick every port;
// `--networks <name>,<name>` (or NETWORKS) names the networks of the table it serves, the
// interface's two by default. Flags reach here as `npm start -- --free-ports` (npm passes
// what follows `--` to the script).

import { PortsInUseError } from './checkPorts'
import { MissingJavaError } from './dynamoLocal'
import { DEFAULT_PERSIST_PATH, type LocalStack, startLocalStack } from './localStack'
import { NotReadyError } from './processes'
import { BadLimitError, limitVariable, type StackPhase } from './stackLimits'
import { parseServedNetworks, UnknownNetworkError } from '../networkNames'

/** The value of `--networks a,b` or `--networks=a,b`, else NETWORKS. */
function networksFlag(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--networks')
  if (at >= 0) return argv[at + 1] ?? ''
  const inline = argv.find((arg) => arg.startsWith('--networks='))
  return inline === undefined ? process.env.NETWORKS : inline.slice('--networks='.length)
}

async function main(): Promise<void> {
  const persist = process.argv.includes('--persist')
  const freePorts = process.argv.includes('--free-ports')
  const networks = servedNetworks()
  const startedAt = performance.now()
  // Signals are handled from the first moment: Ctrl-C while the stack comes up stops what has
  // started (DynamoDB Local and serverless offline run in groups of their own, which the
  // terminal's Ctrl-C does not reach).
  const starting = new AbortController()
  let stack: LocalStack | undefined
  let stopping = false
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping the local stack...`)
    if (!stack) {
      starting.abort()
      return
    }
    await stack.stop()
    process.exit(0)
  }
  process.on('SIGINT', (signal) => void shutdown(signal))
  process.on('SIGTERM', (signal) => void shutdown(signal))

  try {
    stack = await startLocalStack({
      networks,
      offline: true,
      ports: freePorts ? 'free' : undefined,
      persistPath: persist ? DEFAULT_PERSIST_PATH : undefined,
      progress: (line) => console.log(line),
      output: (line) => console.log(`[offline] ${line}`),
      // Edits under functions/, lib/ and schemas/ are rebuilt, and offline runs the new bundles.
      watch: true,
      signal: starting.signal,
      // The API answers first; the history routes fill while the year is read (a line says when).
      priceHistory: 'in-background',
    })
  } catch (error) {
    // startLocalStack has stopped everything it started before rejecting.
    if (starting.signal.aborted) process.exit(0)
    exitOnStartFailure(error, { persist, networks })
  }

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1)
  console.log(readyBlock(stack, seconds, persist))
  const running = stack
  running.priceHistory.catch((error: unknown) => {
    if (stopping) return
    const reason = error instanceof Error ? error.message : String(error)
    const limit = error instanceof NotReadyError ? `; its limit is ${limitVariable('history')}` : ''
    console.log(
      `price history not filled (${reason}${limit}); the sampler fills it forward every 5 ` +
        'minutes, npm run prices:backfill fills the rest',
    )
  })
}

/** The networks named by the flag or NETWORKS; an unknown name ends the start with a hint. */
function servedNetworks(): ReturnType<typeof parseServedNetworks> {
  try {
    return parseServedNetworks(networksFlag(process.argv))
  } catch (error) {
    if (!(error instanceof UnknownNetworkError)) throw error
    console.error(`${error.message}\nName them as --networks ethereum,altchain,...`)
    process.exit(1)
  }
}

/** Ends the start with what to do about a failure it can name; rethrows any other. */
function exitOnStartFailure(
  error: unknown,
  { persist, networks }: { persist: boolean; networks: readonly string[] },
): never {
  if (error instanceof PortsInUseError) {
    const retry = `npm start -- ${persist ? '--persist ' : ''}--free-ports${networksFlag(process.argv) ? ` --networks ${networks.join(',')}` : ''}`
    console.error(`${error.message}\nStop what holds it, or let the OS pick every port: ${retry}`)
    process.exit(1)
  }
  if (error instanceof MissingJavaError || error instanceof BadLimitError) {
    console.error(error.message)
    process.exit(1)
  }
  if (error instanceof NotReadyError) {
    const phases: StackPhase[] = ['dynamo', 'anvil', 'deploy', 'seed', 'bundle', 'offline']
    console.error(
      `${error.message}\nOn a busy machine, raise that phase's limit (whole seconds): ` +
        phases.map(limitVariable).join(', '),
    )
    process.exit(1)
  }
  throw error
}

/** The ready block: where each part of the stack answers. */
function readyBlock(stack: LocalStack, seconds: string, persist: boolean): string {
  return [
    '',
    `Local stack ready in ${seconds} s${persist ? ` (data kept in ${DEFAULT_PERSIST_PATH})` : ''}`,
    `  API          ${stack.apiUrl}/api/v1   (try: curl ${stack.apiUrl}/api/v1/networks)`,
    `  API docs     ${stack.apiUrl}/api/docs   (OpenAPI: ${stack.apiUrl}/api/docs/openapi.json)`,
    `  WebSocket    ${stack.wsUrl}?ticket=<POST /api/v1/ws/ticket>   (try: npm run ws -- <access token>)`,
    ...stack.networks.map((network) => {
      const prefix = network.toUpperCase()
      return `  ${network} RPC ${stack.env[`${prefix}_RPC_URL`]}  chain id ${stack.env[`${prefix}_CHAIN_ID`]}`
    }),
    `  DynamoDB     ${stack.env.DYNAMODB_ENDPOINT}  table ${stack.env.TABLE_NAME}`,
    `  demo account ${stack.demoAccount.address}: funded with coins and every demo token`,
    "               (anvil's public test account 0; its key is in anvil's docs. Devnet only.)",
    'Ctrl-C stops everything.',
  ].join('\n')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
