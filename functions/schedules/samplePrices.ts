import type { ScheduledEvent } from 'aws-lambda'
import { logger } from '../../lib/logger'
import type { Random } from '../../lib/markets/pricingPathReview'
import { samplePrices } from '../../lib/markets/samplePrices'

/**
 * Every 5 minutes: each project's price, and its history's boundaries passed since the last run
 * (the time-weighted averages of the buckets they close, and of the open ones up to now).
 */
export async function runPriceSampler(clock?: () => Date, random?: Random) {
  const run = await samplePrices({ clock, random })
  logger.info('prices sampled', {
    at: run.at.toISOString(),
    sampled: run.sampled.length,
    ...run.history,
    durationMs: run.durationMs,
  })
  // A failing project is logged by id and safe reason, and does not fail the run.
  for (const failure of run.failed) logger.warn('price sample failed', failure)
  for (const failure of run.historyFailed) logger.warn('price history not read', failure)
  return { sampled: run.sampled.length, failed: run.failed.length }
}

export const handler = (_event: ScheduledEvent) => {
  logger.startInvocation()
  return runPriceSampler()
}
