import { batchGetItems, itemId } from './batchGet'
import { priceBucketKey, type TableKey } from './keys'
import { bucketLabel, type PriceGrain } from './priceGrains'

// A token's price as its reviewed pricing path gives it (DECISIONS §9.2, §10.4): the
// time-weighted average of its last closed price bucket, which the sampler writes from the path's
// own pools' accumulators. A spot route through any pool never enters it, and a pool moved for a
// block moves an hour's average by that block's share.

const HOUR_MS = 3_600_000

/** The buckets asked, newest first: the last closed hour, the hour before, the last closed day. */
function bucketsBefore(at: Date): Array<{ grain: PriceGrain; label: string }> {
  const back = (ms: number) => new Date(at.getTime() - ms)
  return [
    { grain: 'hour', label: bucketLabel('hour', back(HOUR_MS)) },
    { grain: 'hour', label: bucketLabel('hour', back(2 * HOUR_MS)) },
    { grain: 'day', label: bucketLabel('day', back(24 * HOUR_MS)) },
  ]
}

/**
 * Each project's path price at `at`, USD per whole token with 18 decimals, by project id: the
 * newest of its last closed hour bucket, the hour before and the last closed day bucket; absent
 * when none is stored (a token without a path, or a sampler down for a day). One BatchGetItem per
 * 33 projects.
 */
export async function readPathPrices(
  projectIds: readonly string[],
  at: Date,
): Promise<Map<string, bigint>> {
  const wanted = projectIds.map((projectId) => ({
    projectId,
    keys: bucketsBefore(at).map(({ grain, label }) => priceBucketKey(projectId, grain, label)),
  }))
  const found = await batchGetItems(
    wanted.flatMap(({ keys }) => keys),
    { projection: 'pk, sk, averageE18' },
  )
  const prices = new Map<string, bigint>()
  for (const { projectId, keys } of wanted) {
    const item = keys
      .map((key: TableKey) => found.get(itemId(key)))
      .find((candidate) => typeof candidate?.averageE18 === 'string')
    if (item) prices.set(projectId, BigInt(String(item.averageE18)))
  }
  return prices
}
