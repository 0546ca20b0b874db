import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { batchWriteItems } from './batchWrite'
import { mapConcurrently } from '../mapConcurrently'
import { bucketLabel, PRICE_GRAINS, type PriceGrain } from './priceGrains'
import { batchGetItems } from './batchGet'
import { db, tableName } from './client'
import { pricePartition, priceBucketKey, priceHistoryMarkerKey } from './keys'
import { transact } from './writeConflicts'

/** A stored bucket: the exact sum of its samples (USD, 18 decimals) and their count. */
export interface PriceBucket {
  start: Date
  sumE18: bigint
  count: number
}

/** What one fold adds to one bucket. */
export interface BucketDelta {
  grain: PriceGrain
  start: Date
  sumE18: bigint
  count: number
  expiresAt: Date
}

const WRITE_CONCURRENCY = 8

// Sums are scaled integers in a DynamoDB number (38 significant digits, exact decimal ADD); the
// document client reads one past 2^53 as a bigint and a smaller one as a number.
function toBigint(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(String(value))
}

function toBucket(item: Record<string, unknown>): PriceBucket {
  return {
    start: new Date(String(item.bucketStart)),
    sumE18: toBigint(item.priceSum),
    count: Number(item.samples),
  }
}

/**
 * Adds each delta to its bucket with an atomic ADD of sum and count, so concurrent folds never
 * lose a sample. Each ADD runs as a one-item transaction: a plain UpdateItem that timed out after
 * DynamoDB applied it would be applied again by the SDK's retry, counting the sample twice. The
 * bucket gets its TTL on first write.
 */
export async function addToPriceBuckets(
  projectId: string,
  deltas: readonly BucketDelta[],
): Promise<void> {
  await mapConcurrently(deltas, WRITE_CONCURRENCY, async (delta) => {
    const codes = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: priceBucketKey(projectId, delta.grain, bucketLabel(delta.grain, delta.start)),
          UpdateExpression:
            'ADD #sum :sum, #count :count SET #type = :type, #start = :start, #expiresAt = :expiresAt',
          ExpressionAttributeNames: {
            '#sum': 'priceSum',
            '#count': 'samples',
            '#type': 'type',
            '#start': 'bucketStart',
            '#expiresAt': 'expiresAt',
          },
          ExpressionAttributeValues: {
            ':sum': delta.sumE18,
            ':count': delta.count,
            ':type': 'PriceBucket',
            ':start': delta.start.toISOString(),
            ':expiresAt': Math.floor(delta.expiresAt.getTime() / 1000),
          },
        },
      },
    ])
    if (codes) throw new Error(`price bucket transaction cancelled: ${codes.join(', ')}`)
  })
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
  const buckets = Items.filter((item) => item.sk !== marker.sk).map(toBucket)
  return { known, buckets }
}

/** The buckets at the given starts that exist, by `<grain>#<start ISO>`: one BatchGetItem per 100. */
export async function getPriceBuckets(
  projectId: string,
  wanted: ReadonlyArray<{ grain: PriceGrain; start: Date }>,
): Promise<Map<string, PriceBucket>> {
  const found = new Map<string, PriceBucket>()
  const byKey = new Map<string, string>()
  for (const { grain, start } of wanted) {
    const key = priceBucketKey(projectId, grain, bucketLabel(grain, start))
    byKey.set(key.sk, `${grain}#${start.toISOString()}`)
  }
  const keys = [...byKey.keys()].map((sk) => ({ pk: pricePartition(projectId), sk }))
  for (const item of (await batchGetItems(keys)).values()) {
    const name = byKey.get(String(item.sk))
    if (name) found.set(name, toBucket(item))
  }
  return found
}
