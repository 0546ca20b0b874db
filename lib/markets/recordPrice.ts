import { getPriceBuckets } from '../db/priceBucket'
import { type PriceChanges, setProjectPrice } from '../db/marketStats'
import { foldPriceSamples } from './foldPriceSamples'
import { PRICE_CHANGE_PERIODS } from '../db/priceGrains'
import { type PriceSample, percentChange, referenceBuckets } from './priceGrains'

/**
 * Records one sample of a project's price: folds it into its buckets, then sets the project's
 * price and its changes against the averages of the buckets 24 h and 7/30/60/90 days back (0
 * where that bucket has no samples), with the total supply when given. Five DynamoDB calls.
 */
export async function recordPrice(
  projectId: string,
  sample: PriceSample,
  { totalSupply }: { totalSupply?: bigint } = {},
): Promise<PriceChanges> {
  await foldPriceSamples(projectId, [sample], { now: sample.at })
  const references = referenceBuckets(sample.at)
  const buckets = await getPriceBuckets(projectId, Object.values(references))
  const changes = Object.fromEntries(
    PRICE_CHANGE_PERIODS.map((period) => {
      const { grain, start } = references[period]
      const bucket = buckets.get(`${grain}#${start.toISOString()}`)
      const average = bucket && bucket.count > 0 ? bucket.sumE18 / BigInt(bucket.count) : undefined
      return [period, percentChange(sample.priceE18, average)]
    }),
  ) as PriceChanges
  await setProjectPrice(projectId, {
    priceE18: sample.priceE18,
    at: sample.at,
    changes,
    totalSupply,
  })
  return changes
}
