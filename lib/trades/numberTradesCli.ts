// `npm run trades:number`: numbers the trades recorded before positions existed (their pages
// are read from an end until then) in the table named by TABLE_NAME (with DYNAMODB_ENDPOINT for
// DynamoDB Local). Safe while the service runs, and to run again.
import { tableName } from '../db/client'
import { backfillTradePositions } from '../db/tradePositions'

async function main(): Promise<void> {
  const wallets = await backfillTradePositions()
  console.log(`numbered the trades of ${wallets.length} wallets in ${tableName()}`)
}

main().catch((error: unknown) => {
  // Only its name and message (no stack, no env).
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exit(1)
})
