// `npm run prices:backfill [-- <projectId> ...]`: fills the price history of the catalog's
// projects (or those named) from the chain, as an import does (DECISIONS §8.3), for projects
// imported before the backfill existed or after an outage. Resumable: run it again to finish.
// Needs the table (TABLE_NAME, DYNAMODB_ENDPOINT for DynamoDB Local) and each network's RPC and
// archive settings.
import { listProjects } from '../db/project'
import { backfillPriceHistory } from './backfillPriceHistory'

async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2))
  const projects = (await listProjects()).filter(
    (project) => wanted.size === 0 || wanted.has(project.id),
  )
  const started = performance.now()
  const outcomes = await backfillPriceHistory({ projects })
  for (const outcome of outcomes) {
    const symbol = projects.find((project) => project.id === outcome.projectId)?.symbol ?? ''
    const what = outcome.error
      ? `stopped: ${outcome.error} (run again to resume)`
      : outcome.pathId === undefined
        ? 'no pool path to the USD stablecoin'
        : `${outcome.written} buckets, ${outcome.boundariesRead} boundaries read` +
          (outcome.outOfReach > 0 ? `, ${outcome.outOfReach} out of reach (no archive node)` : '')
    console.log(`${outcome.projectId} ${symbol}: ${what}`)
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`backfilled ${outcomes.length} projects in ${seconds} s`)
  if (outcomes.some((outcome) => outcome.error)) process.exitCode = 1
}

main().catch((error: unknown) => {
  // Only the name and message: a node's error text can carry its URL.
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exit(1)
})
