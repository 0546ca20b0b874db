import { mapConcurrently } from '../mapConcurrently'
import {
  type BoundaryReading,
  type PricingPath,
  putBoundaryReadings,
  readPriceState,
} from '../db/priceBoundary'
import { type PriceBucket, priceBucketName, putPriceBuckets } from '../db/priceBucket'
import type { BoundaryReader } from './boundaryReader'
import { foldDepthSample } from './minDepths'
import { addBuckets, boundaryExpiry, type BucketRef, bucketExpiry } from './priceGrains'
import type { ResolvedPath } from './pricingPathResolver'
import { pathAverageE18 } from './timeWeightedPrice'

/** Boundaries read from the chain at once (each a block search and the path's pools). */
const READ_CONCURRENCY = 4

export interface FillPriceBucketsParameters {
  projectId: string
  /** The buckets to fill; those already final for the path are left alone. */
  buckets: readonly BucketRef[]
  now: Date
  reader: BoundaryReader
  /**
   * The path to read, given the one stored (if any): the same, another, or undefined when the
   * token has none (nothing is filled); with its pools' depths now where the run sampled them,
   * which the open buckets fold into their smallest depths (DECISIONS §10.4).
   */
  resolvePath: (stored: PricingPath | undefined) => Promise<ResolvedPath | undefined>
  /**
   * How closed buckets and readings are written: by default one conditional UpdateItem each (a
   * longer average of the path stays), as the sampler writes its few; a backfill writes many, in
   * batches (putFinalPriceBuckets, putBoundaryReadingsInBatches).
   */
  writes?: {
    putClosed(projectId: string, buckets: readonly PriceBucket[]): Promise<number>
    putReadings(projectId: string, readings: readonly BoundaryReading[]): Promise<void>
  }
}

export interface FillPriceBucketsReturnType {
  path?: PricingPath
  /** Buckets written (final or, for the open ones, up to now). */
  written: number
  /** Boundaries read from the chain (the others came from the table). */
  boundariesRead: number
  /** Boundaries older than the node's reach, with no archive node configured. */
  outOfReach: number
  /** The path's price at the head, when an open bucket was filled. */
  spotE18?: bigint
  /**
   * The first of the reads a node failed (timed out, refused) this run: the buckets that needed
   * them are left for the next run, the others written.
   */
  failure?: unknown
}

/**
 * Fills buckets with their time-weighted averages (DECISIONS §8.3): the path's accumulators at
 * each bucket's start and end (from the table when read before, else from the chain at the last
 * block before that moment), and for a bucket still open at the head, up to now. One BatchGetItem
 * for what the table holds; boundaries newest first, and none older than one where the path's
 * pools did not exist yet (they did not exist then either). Readings still needed by later runs
 * are stored; buckets are written unless the table holds a longer average of the same path. A
 * read a node fails costs only the buckets that needed it (see `failure`).
 */
export async function fillPriceBuckets({
  projectId,
  buckets,
  now,
  reader,
  resolvePath,
  writes = { putClosed: putPriceBuckets, putReadings: putBoundaryReadings },
}: FillPriceBucketsParameters): Promise<FillPriceBucketsReturnType> {
  const spans = buckets
    .filter((bucket) => bucket.start.getTime() < now.getTime())
    .map((bucket) => {
      const end = addBuckets(bucket.grain, bucket.start, 1)
      return { ...bucket, end: end.getTime() <= now.getTime() ? end : undefined }
    })
  const edges = new Map<number, Date>()
  for (const span of spans) {
    edges.set(span.start.getTime(), span.start)
    if (span.end) edges.set(span.end.getTime(), span.end)
  }
  const state = await readPriceState(projectId, {
    buckets: spans,
    boundaries: [...edges.values()],
    now,
  })
  const resolved = await resolvePath(state.path)
  const path = resolved?.path
  const result: FillPriceBucketsReturnType = { path, written: 0, boundariesRead: 0, outOfReach: 0 }
  if (!path) return result

  const todo = spans.filter((span) => {
    const stored = state.buckets.get(priceBucketName(span.grain, span.start))
    return !(span.end && stored?.pathId === path.id && stored.coveredTo >= span.end)
  })
  const readings = new Map<number, bigint[]>()
  for (const reading of state.boundaries.values()) {
    if (reading.pathId === path.id) readings.set(reading.at.getTime(), reading.cumulatives)
  }
  const missing = new Set<number>()
  for (const span of todo) {
    for (const edge of [span.start, span.end]) {
      if (edge && !readings.has(edge.getTime())) missing.add(edge.getTime())
    }
  }

  // Newest first, a few at a time: once the pools are absent, every older boundary is too.
  let absentBefore = Number.NEGATIVE_INFINITY
  const fresh: BoundaryReading[] = []
  const newestFirst = [...missing].sort((a, b) => b - a)
  for (let start = 0; start < newestFirst.length; start += READ_CONCURRENCY) {
    const chunk = newestFirst.slice(start, start + READ_CONCURRENCY)
    const reads = await mapConcurrently(chunk, READ_CONCURRENCY, async (time) => {
      if (time <= absentBefore) return undefined
      try {
        return await reader.readAt(path, new Date(time))
      } catch (error) {
        result.failure ??= error
        return undefined
      }
    })
    chunk.forEach((time, index) => {
      const read = reads[index]
      if (read?.status === 'read') {
        readings.set(time, read.cumulatives)
        result.boundariesRead += 1
        const at = new Date(time)
        const expiresAt = boundaryExpiry(at)
        if (expiresAt > now)
          fresh.push({ at, pathId: path.id, cumulatives: read.cumulatives, expiresAt })
      } else if (read?.status === 'absent') {
        absentBefore = Math.max(absentBefore, time)
      } else if (read?.status === 'out-of-reach') {
        result.outOfReach += 1
      }
    })
  }

  const present = todo.some((span) => !span.end)
    ? await reader.readPresent(path, resolved.depths).catch((error: unknown) => {
        result.failure ??= error
        return undefined
      })
    : undefined
  result.spotE18 = present?.spotE18
  const averages: PriceBucket[] = []
  for (const span of todo) {
    const startValues = readings.get(span.start.getTime())
    const endAt = span.end ?? present?.at
    const endValues = span.end ? readings.get(span.end.getTime()) : present?.cumulatives
    if (!startValues || !endAt || !endValues) continue
    const seconds = BigInt(Math.floor((endAt.getTime() - span.start.getTime()) / 1000))
    if (seconds <= 0n) continue
    // A closed bucket keeps the samples taken while it was open; an open one adds this run's.
    const stored = state.buckets.get(priceBucketName(span.grain, span.start))?.minDepths
    const minDepths = span.end ? stored : foldDepthSample(stored, resolved.depths)
    averages.push({
      grain: span.grain,
      start: span.start,
      averageE18: pathAverageE18(path, startValues, endValues, seconds, minDepths),
      coveredTo: endAt,
      pathId: path.id,
      ...(path.reviewedAt ? { pathReviewedAt: path.reviewedAt } : {}),
      expiresAt: bucketExpiry(span.grain, span.start),
      ...(minDepths ? { minDepths } : {}),
    })
  }
  const closed = averages.filter(
    (bucket) => bucket.coveredTo.getTime() === addBuckets(bucket.grain, bucket.start, 1).getTime(),
  )
  const open = averages.filter((bucket) => !closed.includes(bucket))
  const [closedWritten, openWritten] = await Promise.all([
    writes.putClosed(projectId, closed),
    putPriceBuckets(projectId, open),
    writes.putReadings(projectId, fresh),
  ])
  result.written = closedWritten + openWritten
  return result
}
