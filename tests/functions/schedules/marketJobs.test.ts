import '../../support/env'
import type { ScheduledEvent } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { handler as samplePricesHandler } from '../../../functions/schedules/samplePrices'
import { handler as syncMarketsHandler } from '../../../functions/schedules/syncMarkets'
import { listProjectMarkets } from '../../../lib/db/marketStats'
import { createProject } from '../../support/marketFixtures'

const event = {
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
} as ScheduledEvent

describe('the scheduled market jobs', () => {
  it('samples the whole catalog, counting a project it cannot price without failing', async () => {
    await createProject()

    const result = await samplePricesHandler(event)

    expect(result.failed).toBeGreaterThanOrEqual(1)
    // The demo catalog of both devnets is always priceable.
    expect(result.sampled).toBeGreaterThanOrEqual(8)
  })

  it('syncs every project of the catalog', async () => {
    const result = await syncMarketsHandler(event)

    const projects = await listProjectMarkets()
    expect(result.synced).toBeGreaterThanOrEqual(8)
    expect(result.synced).toBeLessThanOrEqual(projects.length)
    const ranked = projects.filter(({ market }) => market.marketRank > 0)
    expect(new Set(ranked.map(({ market }) => market.marketRank)).size).toBe(ranked.length)
  })
})
