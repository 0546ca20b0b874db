import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { describe, expect, it } from 'vitest'
import { db, tableName } from '../../../lib/db/client'
import { priceBucketKey } from '../../../lib/db/keys'
import { foldPriceSamples } from '../../../lib/markets/foldPriceSamples'
import { bucketLabel } from '../../../lib/db/priceGrains'
import { bucketStart } from '../../../lib/markets/priceGrains'
import { createProject } from '../../support/marketFixtures'

async function bucketItem(projectId: string, grain: 'hour' | 'day' | 'month', at: Date) {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: priceBucketKey(projectId, grain, bucketLabel(grain, bucketStart(grain, at))),
      ConsistentRead: true,
    }),
  )
  return Item
}

describe('price buckets in the table', () => {
  it('loses no sample when 20 single-sample folds hit the same buckets at once', async () => {
    const project = await createProject()
    const at = new Date()
    // Prices past 2^53 in e18 units, so a float anywhere on the way would show.
    const prices = Array.from(
      { length: 20 },
      (_, index) => 123_456_789_012_345_678_901n + BigInt(index),
    )

    await Promise.all(
      prices.map((priceE18) => foldPriceSamples(project.id, [{ at, priceE18 }], { now: at })),
    )

    const total = prices.reduce((sum, price) => sum + price, 0n)
    for (const grain of ['hour', 'day', 'month'] as const) {
      const item = await bucketItem(project.id, grain, at)
      expect(BigInt(item?.priceSum as string)).toBe(total)
      expect(item?.samples).toBe(20)
    }
  })

  it('counts a sample once when its write timed out after DynamoDB applied it', async () => {
    const project = await createProject()
    const at = new Date()
    const priceE18 = 42n * 10n ** 18n
    // A lost response that no real engine gives on demand: each first attempt reaches DynamoDB
    // Local, then fails as a timeout would, and the SDK sends it again.
    const retried = new Set<unknown>()
    const loseFirstResponse = 'loseFirstResponse'
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const output = await next(args)
        if (context.commandName !== 'TransactWriteItemsCommand' || retried.has(args.input)) {
          return output
        }
        retried.add(args.input)
        throw Object.assign(new Error('the response was lost'), { name: 'TimeoutError' })
      },
      { step: 'deserialize', name: loseFirstResponse },
    )
    try {
      await foldPriceSamples(project.id, [{ at, priceE18 }], { now: at })
    } finally {
      db().middlewareStack.remove(loseFirstResponse)
    }

    expect(retried.size).toBe(3)
    for (const grain of ['hour', 'day', 'month'] as const) {
      const item = await bucketItem(project.id, grain, at)
      expect(BigInt(item?.priceSum as string)).toBe(priceE18)
      expect(item?.samples).toBe(1)
    }
  })

  it('gives each bucket a TTL a little past its window', async () => {
    const project = await createProject()
    const at = new Date('2026-05-10T13:20:00Z')

    await foldPriceSamples(project.id, [{ at, priceE18: 10n ** 18n }], { now: at })

    const hour = await bucketItem(project.id, 'hour', at)
    const day = await bucketItem(project.id, 'day', at)
    const month = await bucketItem(project.id, 'month', at)
    expect(hour?.expiresAt).toBe(Date.parse('2026-05-11T14:00:00Z') / 1000)
    expect(day?.expiresAt).toBe(Date.parse('2026-08-10T00:00:00Z') / 1000)
    expect(month?.expiresAt).toBe(Date.parse('2027-06-01T00:00:00Z') / 1000)
  })
})
