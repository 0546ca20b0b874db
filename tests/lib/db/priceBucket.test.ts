import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { describe, expect, it, vi } from 'vitest'
import { db, tableName } from '../../../lib/db/client'
import { priceBucketKey } from '../../../lib/db/keys'
import {
  type PricingPath,
  putBoundaryReadings,
  putPricingPath,
  readPriceState,
} from '../../../lib/db/priceBoundary'
import { type PriceBucket, priceBucketName, putPriceBuckets } from '../../../lib/db/priceBucket'
import { bucketLabel } from '../../../lib/db/priceGrains'
import { createProject } from '../../support/marketFixtures'

const start = new Date('2026-05-10T13:00:00Z')
const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000)
const farFuture = new Date('2099-01-01T00:00:00Z')

function bucket(overrides: Partial<PriceBucket> = {}): PriceBucket {
  return {
    grain: 'hour',
    start,
    // Past 2^53 in e18 units, so a float anywhere on the way would show.
    averageE18: 123_456_789_012_345_678_901n,
    coveredTo: later(60),
    pathId: 'path-a',
    expiresAt: farFuture,
    ...overrides,
  }
}

async function storedAverage(projectId: string): Promise<string | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: priceBucketKey(projectId, 'hour', bucketLabel('hour', start)),
      ConsistentRead: true,
    }),
  )
  return Item?.averageE18 as string | undefined
}

describe('price buckets and boundary readings in the table', () => {
  it('keeps the longer average of a path, and gives way to another path', async () => {
    const { id } = await createProject()

    const first = await putPriceBuckets(id, [bucket({ coveredTo: later(30), averageE18: 1n })])
    const longer = await putPriceBuckets(id, [bucket({ coveredTo: later(60), averageE18: 2n })])
    const shorter = await putPriceBuckets(id, [bucket({ coveredTo: later(45), averageE18: 3n })])
    const afterShorter = await storedAverage(id)
    const otherPath = await putPriceBuckets(id, [
      bucket({ coveredTo: later(10), averageE18: 4n, pathId: 'path-b' }),
    ])

    expect([first, longer, shorter, otherPath]).toEqual([1, 1, 0, 1])
    expect(afterShorter).toBe('2')
    expect(await storedAverage(id)).toBe('4')
  })

  it('keeps the bucket and the path of the later review when a run of an earlier one writes after it', async () => {
    // Two sampler runs side by side: the first read the path reviewed at 13:00, the second
    // reviewed it at 13:05 to another pool and wrote first; the first's writes come last.
    const { id } = await createProject()
    const reviewed = (minutes: number, pathId: string): PricingPath => ({
      id: pathId,
      hops: [],
      tokenDecimals: 18,
      usdDecimals: 6,
      reviewedAt: later(minutes),
      nextReviewAt: later(minutes + 60),
    })
    const newer = { pathId: 'path-b', pathReviewedAt: later(5) }
    const older = { pathId: 'path-a', pathReviewedAt: later(0) }

    const newerPath = await putPricingPath(id, reviewed(5, 'path-b'))
    const newerBucket = await putPriceBuckets(id, [
      bucket({ ...newer, coveredTo: later(20), averageE18: 1n }),
    ])
    const olderPath = await putPricingPath(id, reviewed(0, 'path-a'))
    const olderBucket = await putPriceBuckets(id, [
      bucket({ ...older, coveredTo: later(25), averageE18: 2n }),
    ])
    const newerLonger = await putPriceBuckets(id, [
      bucket({ ...newer, coveredTo: later(30), averageE18: 3n }),
    ])
    const state = await readPriceState(id, {
      buckets: [{ grain: 'hour', start }],
      boundaries: [],
      now: later(40),
    })

    expect([newerPath, newerBucket, olderPath, olderBucket, newerLonger]).toEqual([
      true,
      1,
      false,
      0,
      1,
    ])
    expect(state.path).toMatchObject({ id: 'path-b', reviewedAt: later(5) })
    expect(state.buckets.get(priceBucketName('hour', start))).toMatchObject({
      averageE18: 3n,
      ...newer,
    })
  })

  it('reads the path, the buckets and the boundaries of a fill in one BatchGetItem, the expired left out', async () => {
    const { id } = await createProject()
    const path: PricingPath = {
      id: 'v2:0xpool:0',
      hops: [
        {
          protocol: 'v2',
          pool: '0x4000000000000000000000000000000000000004',
          tokenIn: '0x1000000000000000000000000000000000000001',
          tokenOut: '0x3000000000000000000000000000000000000003',
          zeroForOne: true,
        },
      ],
      tokenDecimals: 18,
      usdDecimals: 6,
    }
    await putPricingPath(id, path)
    await putPriceBuckets(id, [
      bucket(),
      bucket({ grain: 'day', start: new Date('2026-05-10T00:00:00Z') }),
    ])
    await putBoundaryReadings(id, [
      { at: start, pathId: path.id, cumulatives: [2n ** 255n + 7n], expiresAt: farFuture },
      { at: later(60), pathId: path.id, cumulatives: [-42n], expiresAt: later(90) },
    ])
    const send = vi.spyOn(db(), 'send')

    const state = await readPriceState(id, {
      buckets: [
        { grain: 'hour', start },
        { grain: 'day', start: new Date('2026-05-10T00:00:00Z') },
        { grain: 'hour', start: later(60) },
      ],
      boundaries: [start, later(60)],
      now: later(120),
    })

    expect(send.mock.calls.map(([command]) => command.constructor.name)).toEqual([
      'BatchGetCommand',
    ])
    send.mockRestore()
    expect(state.path).toEqual(path)
    expect([...state.buckets.keys()].sort()).toEqual(
      [
        priceBucketName('day', new Date('2026-05-10T00:00:00Z')),
        priceBucketName('hour', start),
      ].sort(),
    )
    expect(state.buckets.get(priceBucketName('hour', start))?.averageE18).toBe(
      123_456_789_012_345_678_901n,
    )
    // The second reading expired at later(90): the table's TTL may not have removed it yet.
    expect([...state.boundaries.values()]).toEqual([
      { at: start, pathId: path.id, cumulatives: [2n ** 255n + 7n], expiresAt: farFuture },
    ])
  })

  it('gives each bucket the TTL it is handed, in seconds', async () => {
    const { id } = await createProject()

    await putPriceBuckets(id, [bucket({ expiresAt: new Date('2026-05-11T14:00:00Z') })])

    const { Item } = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: priceBucketKey(id, 'hour', bucketLabel('hour', start)),
      }),
    )
    expect(Item?.expiresAt).toBe(Date.parse('2026-05-11T14:00:00Z') / 1000)
  })
})
