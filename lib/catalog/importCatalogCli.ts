// `npm run catalog:import -- <file>`: validates a catalog file and upserts its projects into the
// table named by TABLE_NAME (with DYNAMODB_ENDPOINT for DynamoDB Local). A bad file writes nothing.
import { tableName } from '../db/client'
import { CatalogError, importCatalogFile } from './importCatalog'

async function main(): Promise<void> {
  const path = process.argv[2]
  if (!path) {
    console.error('usage: npm run catalog:import -- <catalog.json>')
    process.exit(2)
  }
  const ids = await importCatalogFile(path)
  console.log(`imported ${ids.length} projects into ${tableName()}`)
}

main().catch((error: unknown) => {
  // A catalog problem prints in full; anything else only its name and message (no stack, no env).
  if (error instanceof CatalogError) console.error(error.message)
  else console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exit(1)
})
