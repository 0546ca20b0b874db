// `npm run trades:number`: numbers the trades recorded before positions existed in the table
// named by TABLE_NAME (with DYNAMODB_ENDPOINT for DynamoDB Local): the migration to run before
// deploying a release that reads only numbered trades (lib/db/numberTrades.ts). Safe while the
// service runs, and to run again.
import { tableName } from '../db/client'
import { backfillTradePositions } from '../db/numberTrades'

async function main(): Promise<void> {
  const wallets = await backfillTradePositions()
  console.log(`numbered the trades of ${wallets.length} wallets in ${tableName()}`)
}

main().catch((error: unknown) => {
  // Only its name and message (no stack, no env).
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exit(1)
})
