import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { batchWriteItems } from './batchWrite'
import { mapConcurrently } from '../mapConcurrently'
import { bucketLabel, PRICE_GRAINS, type PriceGrain } from './priceGrains'
import { batchGetItems } from './batchGet'
import { db, tableName } from './client'
import { pricePartition, priceBucketKey, priceHistoryMarkerKey } from './keys'
import { isConditionFailed } from './writeConflicts'

/** A stored bucket: the time-weighted average price over it (DECISIONS §8.3). */
export interface PriceBucket {
  grain: PriceGrain
  start: Date
  /** USD per whole token, 18 decimals, averaged over [start, coveredTo). */
  averageE18: bigint
  /** The bucket's end once it has closed; while it is open, the moment last read. */
  coveredTo: Date
  /** The pricing path whose pools gave the average (lib/db/priceBoundary.ts). */
  pathId: string
  /**
   * When that path was reviewed, as the run that wrote the bucket knew it: a hop no sample
   * weighs takes the review's depths, so this says which review's (absent: a path never reviewed,
   * or a bucket written before this was kept).
   */
  pathReviewedAt?: Date
  /** The table's TTL. */
  expiresAt: Date
  /**
   * Each pool's smallest ±2 % depth over the bucket's samples (the sampler's runs within it), by
   * lower-cased pool address: its weight in a hop's median (DECISIONS §10.4). A pool of the path
   * that a sample did not see counts 0 from then on. Absent: no run sampled the bucket.
   */
  minDepths?: ReadonlyMap<string, bigint>
}

/** minDepths as the table keeps it: a map of decimal strings. */
function depthsItem(depths: ReadonlyMap<string, bigint>): Record<string, string> {
  return Object.fromEntries([...depths].map(([pool, depth]) => [pool, depth.toString()]))
}

function depthsOf(value: unknown): Map<string, bigint> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  return new Map(Object.entries(value).map(([pool, depth]) => [pool, BigInt(String(depth))]))
}

const WRITE_CONCURRENCY = 8

export function toPriceBucket(grain: PriceGrain, item: Record<string, unknown>): PriceBucket {
  return {
    grain,
    start: new Date(String(item.bucketStart)),
    averageE18: BigInt(String(item.averageE18)),
    coveredTo: new Date(String(item.coveredTo)),
    pathId: String(item.pathId),
    ...(typeof item.pathReviewedAt === 'string'
      ? { pathReviewedAt: new Date(item.pathReviewedAt) }
      : {}),
    expiresAt: new Date(Number(item.expiresAt) * 1000),
    ...(item.minDepths ? { minDepths: depthsOf(item.minDepths) } : {}),
  }
}

/**
 * Writes each bucket unless the table holds one of a later review of the path, or a longer average
 * of the same path: one conditional UpdateItem each, so runs side by side (a sampler slower than
 * its period, a backfill) end with the newest review's path (the one the table keeps, see
 * putPricingPath) and the longest average it was read over. Returns the buckets written.
 */
export async function putPriceBuckets(
  projectId: string,
  buckets: readonly PriceBucket[],
): Promise<number> {
  const written = await mapConcurrently(buckets, WRITE_CONCURRENCY, async (bucket) => {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: priceBucketKey(projectId, bucket.grain, bucketLabel(bucket.grain, bucket.start)),
          UpdateExpression:
            'SET #type = :type, bucketStart = :start, averageE18 = :average, coveredTo = :to, pathId = :path, expiresAt = :expiresAt' +
            (bucket.minDepths ? ', minDepths = :depths' : '') +
            (bucket.pathReviewedAt ? ', pathReviewedAt = :reviewed' : ' REMOVE pathReviewedAt'),
          ConditionExpression: bucket.pathReviewedAt
            ? // Of two runs, the one of the later review wins, then the longer average.
              'attribute_not_exists(coveredTo) OR attribute_not_exists(pathReviewedAt) OR pathReviewedAt < :reviewed OR (pathReviewedAt = :reviewed AND (coveredTo <= :to OR pathId <> :path))'
            : 'attribute_not_exists(coveredTo) OR coveredTo <= :to OR pathId <> :path',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'PriceBucket',
            ':start': bucket.start.toISOString(),
            ':average': bucket.averageE18.toString(),
            ':to': bucket.coveredTo.toISOString(),
            ':path': bucket.pathId,
            ':expiresAt': Math.floor(bucket.expiresAt.getTime() / 1000),
            ...(bucket.minDepths ? { ':depths': depthsItem(bucket.minDepths) } : {}),
            ...(bucket.pathReviewedAt ? { ':reviewed': bucket.pathReviewedAt.toISOString() } : {}),
          },
        }),
      )
      return 1
    } catch (error) {
      if (isConditionFailed(error)) return 0
      throw error
    }
  })
  return written.reduce<number>((sum, count) => sum + count, 0)
}

/**
 * Writes closed buckets over whatever the table holds, 25 to a BatchWriteItem: a backfill's, whose
 * averages of a path are final (the same whoever reads them) and whose path is the one chosen.
 */
export async function putFinalPriceBuckets(
  projectId: string,
  buckets: readonly PriceBucket[],
): Promise<number> {
  await batchWriteItems(
    buckets.map((bucket) => ({
      PutRequest: {
        Item: {
          ...priceBucketKey(projectId, bucket.grain, bucketLabel(bucket.grain, bucket.start)),
          type: 'PriceBucket',
          bucketStart: bucket.start.toISOString(),
          averageE18: bucket.averageE18.toString(),
          coveredTo: bucket.coveredTo.toISOString(),
          pathId: bucket.pathId,
          ...(bucket.pathReviewedAt ? { pathReviewedAt: bucket.pathReviewedAt.toISOString() } : {}),
          expiresAt: Math.floor(bucket.expiresAt.getTime() / 1000),
          ...(bucket.minDepths ? { minDepths: depthsItem(bucket.minDepths) } : {}),
        },
      },
    })),
  )
  return buckets.length
}

/**
 * Writes the markers that make a project's history known (one per grain, no TTL). Idempotent;
 * the catalog import calls it for every project.
 */
export async function openPriceHistory(projectId: string): Promise<void> {
  // Each marker retried until written: a dropped one would leave that grain's history 404.
  await batchWriteItems(
    PRICE_GRAINS.map((grain) => ({
      PutRequest: {
        Item: { ...priceHistoryMarkerKey(projectId, grain), type: 'PriceHistory', projectId },
      },
    })),
  )
}

export interface PriceWindow {
  /** False when the project has no history marker: not a known project. */
  known: boolean
  /** Oldest first. */
  buckets: PriceBucket[]
}

/** The buckets of `grain` from `from` on, and the marker: exactly one Query. */
export async function queryPriceWindow(
  projectId: string,
  grain: PriceGrain,
  from: Date,
): Promise<PriceWindow> {
  const marker = priceHistoryMarkerKey(projectId, grain)
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :marker',
      ExpressionAttributeValues: {
        ':pk': pricePartition(projectId),
        ':from': priceBucketKey(projectId, grain, bucketLabel(grain, from)).sk,
        ':marker': marker.sk,
      },
    }),
  )
  const known = Items.some((item) => item.sk === marker.sk)
  const buckets = Items.filter((item) => item.sk !== marker.sk).map((item) =>
    toPriceBucket(grain, item),
  )
  return { known, buckets }
}

/** The buckets at the given starts that exist, by `<grain>#<start ISO>`: one BatchGetItem per 100. */
export async function getPriceBuckets(
  projectId: string,
  wanted: ReadonlyArray<{ grain: PriceGrain; start: Date }>,
): Promise<Map<string, PriceBucket>> {
  const found = new Map<string, PriceBucket>()
  const byKey = new Map<string, { grain: PriceGrain; name: string }>()
  for (const { grain, start } of wanted) {
    const key = priceBucketKey(projectId, grain, bucketLabel(grain, start))
    byKey.set(key.sk, { grain, name: priceBucketName(grain, start) })
  }
  const keys = [...byKey.keys()].map((sk) => ({ pk: pricePartition(projectId), sk }))
  for (const item of (await batchGetItems(keys)).values()) {
    const wantedBucket = byKey.get(String(item.sk))
    if (wantedBucket) found.set(wantedBucket.name, toPriceBucket(wantedBucket.grain, item))
  }
  return found
}

/** How getPriceBuckets and readPriceState name a bucket: `<grain>#<start ISO>`. */
export function priceBucketName(grain: PriceGrain, start: Date): string {
  return `${grain}#${start.toISOString()}`
}
