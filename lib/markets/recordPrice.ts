import { getPriceBuckets, priceBucketName } from '../db/priceBucket'
import { type PriceChanges, setProjectPrice } from '../db/marketStats'
import { PRICE_CHANGE_PERIODS } from '../db/priceGrains'
import { percentChange, referenceBuckets } from './priceGrains'

export interface PriceRecord {
  at: Date
  /** What the DEX pays for the token now, USD per whole token (18 decimals): the project's price. */
  priceE18: bigint
  /**
   * The pools' own price now (no fee), from the same pools as the history's averages, which the
   * changes compare; the quote when absent.
   */
  midE18?: bigint
}

/**
 * Records a project's price: sets it, with its changes against the time-weighted averages of the
 * buckets 24 h and 7/30/60/90 days back (0 where that bucket is not there), and the total supply
 * when given. Two DynamoDB calls.
 */
export async function recordPrice(
  projectId: string,
  { at, priceE18, midE18 = priceE18 }: PriceRecord,
  { totalSupply }: { totalSupply?: bigint } = {},
): Promise<PriceChanges> {
  const references = referenceBuckets(at)
  const buckets = await getPriceBuckets(projectId, Object.values(references))
  const changes = Object.fromEntries(
    PRICE_CHANGE_PERIODS.map((period) => {
      const { grain, start } = references[period]
      const average = buckets.get(priceBucketName(grain, start))?.averageE18
      return [period, percentChange(midE18, average)]
    }),
  ) as PriceChanges
  await setProjectPrice(projectId, { priceE18, at, changes, totalSupply })
  return changes
}
