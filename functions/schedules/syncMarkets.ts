import type { ScheduledEvent } from 'aws-lambda'
import { logger } from '../../lib/logger'
import { syncMarkets } from '../../lib/markets/syncMarkets'

/** Every 10 minutes: supply, pairs, 24 h volume, inception and rank of every project. */
export async function runMarketSync(clock?: () => Date) {
  const run = await syncMarkets({ clock })
  logger.info('markets synced', {
    at: run.at.toISOString(),
    synced: run.synced,
    durationMs: run.durationMs,
  })
  // A failing network or project keeps its previous metrics; the run itself succeeds.
  for (const failure of run.failed) logger.warn('market sync failed', failure)
  return { synced: run.synced, failed: run.failed.length }
}

export const handler = (_event: ScheduledEvent) => {
  logger.startInvocation()
  return runMarketSync()
}
