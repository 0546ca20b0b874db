/**
 * A bucket's smallest depths after one more sample (DECISIONS §10.4), by lower-cased pool
 * address: each pool's least of what it held at every sample so far. A pool the sample did not
 * see (no longer in the path) and one it sees for the first time in a bucket sampled before both
 * count 0: capital counts in a bucket only if every sample of it saw the capital. The first sample
 * of a bucket is its own minimum; no sample leaves the bucket as it was.
 */
export function foldDepthSample(
  stored: ReadonlyMap<string, bigint> | undefined,
  sample: ReadonlyMap<string, bigint> | undefined,
): ReadonlyMap<string, bigint> | undefined {
  if (!sample) return stored
  if (!stored) return new Map(sample)
  const folded = new Map<string, bigint>()
  for (const [pool, depth] of stored) {
    const now = sample.get(pool)
    folded.set(pool, now === undefined ? 0n : now < depth ? now : depth)
  }
  for (const pool of sample.keys()) if (!stored.has(pool)) folded.set(pool, 0n)
  return folded
}
