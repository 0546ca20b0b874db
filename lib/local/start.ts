// `npm start`: the whole service on loopback until Ctrl-C. `--persist` keeps DynamoDB data
// under .data/ (git-ignored) instead of in memory; `--free-ports` lets the OS pick every port.
import { MissingJavaError } from './dynamoLocal'
import { DEFAULT_PERSIST_PATH, type LocalStack, startLocalStack } from './localStack'

async function main(): Promise<void> {
  const persist = process.argv.includes('--persist')
  const startedAt = Date.now()
  let stack: LocalStack
  try {
    stack = await startLocalStack({
      offline: true,
      ports: process.argv.includes('--free-ports') ? 'free' : undefined,
      persistPath: persist ? DEFAULT_PERSIST_PATH : undefined,
      output: (line) => console.log(`[offline] ${line}`),
    })
  } catch (error) {
    if (error instanceof MissingJavaError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping the local stack...`)
    await stack.stop()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1)
  console.log(
    [
      '',
      `Local stack ready in ${seconds} s${persist ? ` (data kept in ${DEFAULT_PERSIST_PATH})` : ''}`,
      `  API          ${stack.apiUrl}/api/v1   (try: curl ${stack.apiUrl}/api/v1/networks)`,
      `  API docs     ${stack.apiUrl}/api/docs   (OpenAPI: ${stack.apiUrl}/api/docs/openapi.json)`,
      `  ethereum RPC ${stack.env.ETHEREUM_RPC_URL}  chain id ${stack.env.ETHEREUM_CHAIN_ID}`,
      `  altchain RPC ${stack.env.ALTCHAIN_RPC_URL}  chain id ${stack.env.ALTCHAIN_CHAIN_ID}`,
      `  DynamoDB     ${stack.env.DYNAMODB_ENDPOINT}  table ${stack.env.TABLE_NAME}`,
      `  demo account ${stack.demoAccount.address}: funded with coins and every demo token`,
      "               (anvil's public test account 0; its key is in anvil's docs. Devnet only.)",
      'Ctrl-C stops everything.',
    ].join('\n'),
  )
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
