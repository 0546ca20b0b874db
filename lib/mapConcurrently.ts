/**
 * Maps `items` with at most `limit` calls of `fn` in flight, keeping the input order. Bounded so a
 * large batch neither floods the database or a node nor waits on one call at a time.
 */
export async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  limit: number,
  fn: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next
      next += 1
      results[index] = await fn(items[index] as Item, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
