import { mapConcurrently } from '../mapConcurrently'
import {
  type BoundaryReading,
  type PricingPath,
  putBoundaryReadings,
  readPriceState,
} from '../db/priceBoundary'
import { type PriceBucket, priceBucketName, putPriceBuckets } from '../db/priceBucket'
import type { BoundaryReader, PresentRead } from './boundaryReader'
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

type Span = BucketRef & { end?: Date }
type PriceState = Awaited<ReturnType<typeof readPriceState>>
/** The path's cumulatives at each boundary known so far, by its time in ms. */
type Readings = Map<number, bigint[]>

/** The buckets begun by `now`, each with its end if that has passed too. */
function spansOf(buckets: readonly BucketRef[], now: Date): Span[] {
  return buckets
    .filter((bucket) => bucket.start.getTime() < now.getTime())
    .map((bucket) => {
      const end = addBuckets(bucket.grain, bucket.start, 1)
      return { ...bucket, end: end.getTime() <= now.getTime() ? end : undefined }
    })
}

/** Every start and passed end of the spans, once each. */
function edgesOf(spans: readonly Span[]): Date[] {
  const edges = new Map<number, Date>()
  for (const span of spans) {
    edges.set(span.start.getTime(), span.start)
    if (span.end) edges.set(span.end.getTime(), span.end)
  }
  return [...edges.values()]
}

/** The spans still to fill: all but the closed ones the table holds final for `path`. */
function spansToFill(spans: readonly Span[], state: PriceState, path: PricingPath): Span[] {
  return spans.filter((span) => {
    const stored = state.buckets.get(priceBucketName(span.grain, span.start))
    return !(span.end && stored?.pathId === path.id && stored.coveredTo >= span.end)
  })
}

/** The readings of `path` the table holds. */
function storedReadings(state: PriceState, path: PricingPath): Readings {
  const readings: Readings = new Map()
  for (const reading of state.boundaries.values()) {
    if (reading.pathId === path.id) readings.set(reading.at.getTime(), reading.cumulatives)
  }
  return readings
}

/** The boundaries of `todo` with no reading yet, newest first. */
function missingBoundaries(todo: readonly Span[], readings: Readings): number[] {
  const missing = new Set<number>()
  for (const span of todo) {
    for (const edge of [span.start, span.end]) {
      if (edge && !readings.has(edge.getTime())) missing.add(edge.getTime())
    }
  }
  return [...missing].sort((a, b) => b - a)
}

interface BoundaryReads {
  reader: BoundaryReader
  path: PricingPath
  now: Date
  readings: Readings
  result: FillPriceBucketsReturnType
}

/**
 * Reads the missing boundaries from the chain, newest first, a few at a time: once the pools are
 * absent, every older boundary is too. Each read joins `readings` and is counted in `result`;
 * the readings later runs still need, to be stored.
 */
async function readBoundaries(
  newestFirst: readonly number[],
  { reader, path, now, readings, result }: BoundaryReads,
): Promise<BoundaryReading[]> {
  let absentBefore = Number.NEGATIVE_INFINITY
  const fresh: BoundaryReading[] = []
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
  return fresh
}

/** Each span's average over what is known of it (up to `present` for an open one). */
function averagesOf(
  todo: readonly Span[],
  {
    state,
    resolved,
    readings,
    present,
  }: {
    state: PriceState
    resolved: ResolvedPath
    readings: Readings
    present: PresentRead | undefined
  },
): PriceBucket[] {
  const { path } = resolved
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
  return averages
}

/** Writes the closed buckets as `writes` says, the open ones and the fresh readings; the count. */
async function writeAverages(
  projectId: string,
  averages: readonly PriceBucket[],
  fresh: readonly BoundaryReading[],
  writes: NonNullable<FillPriceBucketsParameters['writes']>,
): Promise<number> {
  const closed = averages.filter(
    (bucket) => bucket.coveredTo.getTime() === addBuckets(bucket.grain, bucket.start, 1).getTime(),
  )
  const open = averages.filter((bucket) => !closed.includes(bucket))
  const [closedWritten, openWritten] = await Promise.all([
    writes.putClosed(projectId, closed),
    putPriceBuckets(projectId, open),
    writes.putReadings(projectId, fresh),
  ])
  return closedWritten + openWritten
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
  const spans = spansOf(buckets, now)
  const state = await readPriceState(projectId, { buckets: spans, boundaries: edgesOf(spans), now })
  const resolved = await resolvePath(state.path)
  const path = resolved?.path
  const result: FillPriceBucketsReturnType = { path, written: 0, boundariesRead: 0, outOfReach: 0 }
  if (!path) return result

  const todo = spansToFill(spans, state, path)
  const readings = storedReadings(state, path)
  const fresh = await readBoundaries(missingBoundaries(todo, readings), {
    reader,
    path,
    now,
    readings,
    result,
  })
  const present = todo.some((span) => !span.end)
    ? await reader.readPresent(path, resolved.depths).catch((error: unknown) => {
        result.failure ??= error
        return undefined
      })
    : undefined
  result.spotE18 = present?.spotE18
  const averages = averagesOf(todo, { state, resolved, readings, present })
  result.written = await writeAverages(projectId, averages, fresh, writes)
  return result
}
