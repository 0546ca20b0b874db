import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { Address } from 'viem'
import { mapConcurrently } from '../mapConcurrently'
import { batchGetItems } from './batchGet'
import { batchWriteItems } from './batchWrite'
import { db, tableName } from './client'
import {
  priceBoundaryKey,
  priceBucketKey,
  pricePartition,
  pricingPathKey,
  type TableKey,
} from './keys'
import { priceBucketName, type PriceBucket, toPriceBucket } from './priceBucket'
import { isConditionFailed } from './writeConflicts'
import { bucketLabel, type PriceGrain } from './priceGrains'

// What the price history reads its averages from (DECISIONS §8.3): a project's pricing path
// (the pools from the token to the USD stablecoin) and the path's accumulators read at bucket
// boundaries, kept until the buckets they start have closed.

/** One pool of a pricing path's hop, in the direction the price is taken. */
export interface HopPool {
  protocol: 'v2' | 'v3'
  pool: Address
  /** Whether the hop's tokenIn is the pool's token0. */
  zeroForOne: boolean
  /** V3 only, in hundredths of a bip. */
  fee?: number
  /**
   * Its depth within ±2 % of its price in tokenOut base units (a decimal string) when the path was
   * last reviewed: what the sampler compares its samples with (a hop less than half as deep is
   * reviewed at once), and its weight in the hop's median for buckets no sampler run saw
   * (backfilled); a sampled bucket weighs each pool by its smallest sampled depth (DECISIONS §10.4).
   */
  depth?: string
}

/**
 * A hop of a pricing path: its pools, this one and `more`, in address order (so a path's id does
 * not change when two of them swap ranks).
 */
export interface PathHop extends HopPool {
  tokenIn: Address
  tokenOut: Address
  /**
   * The pair's other pools that, like this one, hold at least a tenth of the depth of its deepest:
   * the hop's price is then the depth-weighted median of all their prices. Absent: this pool's
   * price alone.
   */
  more?: HopPool[]
}

/** The pools chained from a token to its network's USD stablecoin; none for the stablecoin. */
export interface PricingPath {
  /** Names the pools and directions, so readings of different paths are never mixed. */
  id: string
  hops: PathHop[]
  tokenDecimals: number
  usdDecimals: number
  /** When the pools were last compared with every candidate (a backfill, the sampler's review). */
  reviewedAt?: Date
  /** When the sampler reviews them next: drawn at random at each review (pricingPathReview.ts). */
  nextReviewAt?: Date
}

/** A hop's pools, in the order of their readings. */
export function hopPools(hop: PathHop): HopPool[] {
  return [hop, ...(hop.more ?? [])]
}

/** Every pool of the path, hop after hop: one accumulator reading each, in this order. */
export function pathPools(path: PricingPath): HopPool[] {
  return path.hops.flatMap(hopPools)
}

/** The path's accumulators at a boundary, one per hop, extended to the boundary's moment. */
export interface BoundaryReading {
  at: Date
  pathId: string
  /** V2: the cumulative price (UQ112x112 seconds, mod 2^256); V3: the tick cumulative. */
  cumulatives: bigint[]
  expiresAt: Date
}

const WRITE_CONCURRENCY = 8

/** Boundaries are hour starts: `2026-11-21T20`. */
function boundaryLabel(at: Date): string {
  return bucketLabel('hour', at)
}

/**
 * Stores the project's pricing path, when it was reviewed and when it is reviewed next (one
 * UpdateItem; no TTL).
 */
export async function putPricingPath(projectId: string, path: PricingPath): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: pricingPathKey(projectId),
        UpdateExpression:
          'SET #type = :type, pathId = :id, hops = :hops, decimals = :decimals, reviewedAt = :reviewed, nextReviewAt = :next',
        // The newest review stands: a run that reviewed earlier and writes later changes nothing.
        // A path told without a review is stored whatever the table holds.
        ...(path.reviewedAt
          ? { ConditionExpression: 'attribute_not_exists(reviewedAt) OR reviewedAt <= :reviewed' }
          : {}),
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'PricingPath',
          ':id': path.id,
          ':hops': JSON.stringify(path.hops),
          ':decimals': [path.tokenDecimals, path.usdDecimals],
          // A path stored without a review (told which pools to read) is due for one.
          ':reviewed': path.reviewedAt?.toISOString() ?? '',
          ':next': path.nextReviewAt?.toISOString() ?? '',
        },
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/** Stores boundary readings: one UpdateItem each, `WRITE_CONCURRENCY` at a time. */
export async function putBoundaryReadings(
  projectId: string,
  readings: readonly BoundaryReading[],
): Promise<void> {
  await mapConcurrently(readings, WRITE_CONCURRENCY, (reading) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: priceBoundaryKey(projectId, boundaryLabel(reading.at)),
        UpdateExpression:
          'SET #type = :type, #at = :at, pathId = :path, cumulatives = :cumulatives, expiresAt = :expiresAt',
        ExpressionAttributeNames: { '#type': 'type', '#at': 'at' },
        ExpressionAttributeValues: {
          ':type': 'PriceBoundary',
          ':at': reading.at.toISOString(),
          ':path': reading.pathId,
          ':cumulatives': reading.cumulatives.map(String),
          ':expiresAt': Math.floor(reading.expiresAt.getTime() / 1000),
        },
      }),
    ),
  )
}

/** Stores boundary readings 25 to a BatchWriteItem (a backfill's). */
export async function putBoundaryReadingsInBatches(
  projectId: string,
  readings: readonly BoundaryReading[],
): Promise<void> {
  await batchWriteItems(
    readings.map((reading) => ({
      PutRequest: {
        Item: {
          ...priceBoundaryKey(projectId, boundaryLabel(reading.at)),
          type: 'PriceBoundary',
          at: reading.at.toISOString(),
          pathId: reading.pathId,
          cumulatives: reading.cumulatives.map(String),
          expiresAt: Math.floor(reading.expiresAt.getTime() / 1000),
        },
      },
    })),
  )
}

export interface PriceState {
  path?: PricingPath
  /** By priceBucketName. */
  buckets: Map<string, PriceBucket>
  /** By the boundary's time in ms. */
  boundaries: Map<number, BoundaryReading>
}

/**
 * A project's pricing path, the buckets and the boundary readings asked for, in one BatchGetItem
 * (per 100 keys). Expired items the TTL has not removed yet are left out.
 */
export async function readPriceState(
  projectId: string,
  {
    buckets,
    boundaries,
    now,
  }: {
    buckets: ReadonlyArray<{ grain: PriceGrain; start: Date }>
    boundaries: readonly Date[]
    now: Date
  },
): Promise<PriceState> {
  const pathKey = pricingPathKey(projectId)
  const wanted = new Map<string, (item: Record<string, unknown>, state: PriceState) => void>()
  const want = (key: TableKey, take: (item: Record<string, unknown>, state: PriceState) => void) =>
    wanted.set(key.sk, take)
  want(pathKey, (item, state) => {
    const [tokenDecimals, usdDecimals] = (item.decimals as number[]).map(Number)
    const dateOf = (value: unknown) => {
      const date = typeof value === 'string' ? new Date(value) : undefined
      return date && !Number.isNaN(date.getTime()) ? date : undefined
    }
    const reviewedAt = dateOf(item.reviewedAt)
    const nextReviewAt = dateOf(item.nextReviewAt)
    state.path = {
      id: String(item.pathId),
      hops: JSON.parse(String(item.hops)) as PathHop[],
      tokenDecimals: tokenDecimals ?? 18,
      usdDecimals: usdDecimals ?? 6,
      // Paths stored before reviews were recorded, or never reviewed, have none.
      ...(reviewedAt ? { reviewedAt } : {}),
      ...(nextReviewAt ? { nextReviewAt } : {}),
    }
  })
  for (const { grain, start } of buckets) {
    want(priceBucketKey(projectId, grain, bucketLabel(grain, start)), (item, state) => {
      const bucket = toPriceBucket(grain, item)
      if (bucket.expiresAt > now) state.buckets.set(priceBucketName(grain, start), bucket)
    })
  }
  for (const at of boundaries) {
    want(priceBoundaryKey(projectId, boundaryLabel(at)), (item, state) => {
      const reading = {
        at: new Date(String(item.at)),
        pathId: String(item.pathId),
        cumulatives: (item.cumulatives as unknown[]).map((value) => BigInt(String(value))),
        expiresAt: new Date(Number(item.expiresAt) * 1000),
      }
      if (reading.expiresAt > now) state.boundaries.set(reading.at.getTime(), reading)
    })
  }
  const state: PriceState = { buckets: new Map(), boundaries: new Map() }
  const keys = [...wanted.keys()].map((sk) => ({ pk: pricePartition(projectId), sk }))
  for (const item of (await batchGetItems(keys)).values()) {
    wanted.get(String(item.sk))?.(item, state)
  }
  return state
}
