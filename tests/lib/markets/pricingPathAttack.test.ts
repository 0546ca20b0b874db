import '../../support/env'
import { type Address, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPriceSampler } from '../../../functions/schedules/samplePrices'
import { importCatalogEntries } from '../../../lib/catalog/importCatalog'
import { queryPriceWindow } from '../../../lib/db/priceBucket'
import { getProjectMarket } from '../../../lib/db/marketStats'
import { backfillPriceHistory } from '../../../lib/markets/backfillPriceHistory'
import { windowStart } from '../../../lib/markets/priceGrains'
import { TwapReference } from '../../support/independentTwap'
import { catalogEntry } from '../../support/marketFixtures'
import { type MintedPosition, startOwnMarketDevnet } from '../../support/ownMarketDevnet'
import {
  honestToken,
  pathOf,
  poolsOf,
  PRICE,
  pushEmptyPool,
  TOKEN,
  USD,
  usdOf,
} from '../../support/ownPriceMarket'

// Issue 32, "a narrow position captures a token's price history", replayed on a devnet and a
// table of this file's own (the chain's clock moves hours and days ahead here): a token priced by
// a V2 pair and a wide V3 position at $0.30; an attacker adds a position one tick spacing wide to
// an empty pool of the token and the USD coin, which in-range liquidity × √P counted as the
// deepest; the import chooses the path; the attacker withdraws and pushes the now-empty pool to
// 100 times the price for nothing but gas. The buckets come from the catalog import, the sampler's
// handler and the chain's own accumulators, and are checked against an independent reference.

const HOUR = 3600
let own: Awaited<ReturnType<typeof startOwnMarketDevnet>>
let reference: TwapReference

beforeAll(async () => {
  own = await startOwnMarketDevnet()
  reference = new TwapReference(own.deployment.rpcUrl)
}, 180_000)

afterAll(async () => {
  await own?.stop()
})

const usdc = () => own.deployment.usdStablecoin

/** The hour bucket starting at `start` (Unix seconds), as the history route reads it. */
async function hourBucket(projectId: string, start: number, now: number) {
  const { buckets } = await queryPriceWindow(
    projectId,
    'hour',
    windowStart('hour', new Date(now * 1000)),
  )
  const bucket = buckets.find((candidate) => candidate.start.getTime() === start * 1000)
  if (!bucket) throw new Error(`no hour bucket at ${new Date(start * 1000).toISOString()}`)
  return bucket
}

/** What the pool alone says over the hour: the bucket the attacker would have written. */
function aloneAverage(pool: Address, token: Address, start: number) {
  return reference.averageE18(
    {
      hops: [{ protocol: 'v3', pool, zeroForOne: BigInt(token) < BigInt(usdc()) }],
      tokenDecimals: 18,
      usdDecimals: 6,
    },
    BigInt(start),
    BigInt(start + HOUR),
  )
}

describe('a position one tick spacing wide cannot capture a token’s price history', () => {
  it('is not chosen at import, and after it is withdrawn and its empty pool pushed 100-fold every later bucket follows the deep pools', async () => {
    // Prepare: the honest pools, then the attacker's position: the one 0.05 % tick spacing that
    // holds the price, $100 a side, where L·√P is about 2,000 times its capital.
    const token = (await honestToken(own, 'NARROW')).token
    const narrow: MintedPosition = await own.mintV3Position({
      tokenA: token,
      tokenB: usdc(),
      fee: 500,
      price: { ...PRICE, centered: true },
      ticksBelow: 0,
      ticksAbove: 0,
      amountA: 333n * TOKEN,
      amountB: 100n * USD,
    })
    const [projectId] = await importCatalogEntries([
      catalogEntry({ address: getAddress(token), decimals: 18, symbol: 'NARROW' }),
    ])
    if (!projectId) throw new Error('not imported')
    const chosen = await pathOf(projectId)

    // Act: withdraw, push the empty pool, let two hours pass, and the sampler's handler run.
    await own.withdrawV3Position(narrow)
    await pushEmptyPool(own, narrow.pool, token, 'up')
    const firstFullHour = Math.ceil((await own.chainTime()) / HOUR) * HOUR
    const firstRun = firstFullHour + HOUR + 60
    await own.mineAt(firstRun)
    await runPriceSampler(() => new Date(firstRun * 1000))
    // A day later, the sampler again (the next bucket, and the path's daily review on the way).
    const dayLater = firstRun + 24 * HOUR
    await own.mineAt(dayLater)
    await runPriceSampler(() => new Date(dayLater * 1000))

    // Assess: the path never held the attacker's pool, and both hours are the deep pools' median
    // to the unit, $0.30, where the attacker's pool alone says 100 times that.
    const later = await pathOf(projectId)
    const lastFullHour = Math.floor(dayLater / HOUR) * HOUR - HOUR
    const figures = await Promise.all(
      [
        { start: firstFullHour, now: firstRun },
        { start: lastFullHour, now: dayLater },
      ].map(async ({ start, now }) => ({
        start,
        bucket: (await hourBucket(projectId, start, now)).averageE18,
        deep: await reference.averageE18(later, BigInt(start), BigInt(start + HOUR)),
        attacker: await aloneAverage(narrow.pool, token, start),
      })),
    )
    console.log(
      `narrow-position attack: path at import ${chosen.id}; ` +
        figures
          .map(
            ({ start, bucket, attacker }) =>
              `hour ${new Date(start * 1000).toISOString().slice(0, 13)}: bucket $${usdOf(bucket)}, ` +
              `the attacker's pool alone $${usdOf(attacker)}`,
          )
          .join('; '),
    )
    expect(poolsOf(chosen)).not.toContain(getAddress(narrow.pool))
    expect(poolsOf(later)).not.toContain(getAddress(narrow.pool))
    for (const { bucket, deep, attacker } of figures) {
      expect(bucket).toBe(deep)
      expect(Math.abs(usdOf(bucket) - 0.3)).toBeLessThan(0.003)
      expect(usdOf(attacker)).toBeGreaterThan(29)
    }
  })

  it('gives a path way at the next sampler run once the pool it follows has lost half its depth: real capital steers no bucket after it is withdrawn', async () => {
    // Prepare: an attacker with real capital, ±3 % around the price with up to $20,000 a side:
    // deeper within ±2 % than both honest pools together, so the median follows it.
    const token = (await honestToken(own, 'DEEP')).token
    const deep = await own.mintV3Position({
      tokenA: token,
      tokenB: usdc(),
      fee: 500,
      price: PRICE,
      ticksBelow: 300,
      ticksAbove: 300,
      amountA: 66_667n * TOKEN,
      amountB: 20_000n * USD,
    })
    const [projectId] = await importCatalogEntries(
      [catalogEntry({ address: getAddress(token), decimals: 18, symbol: 'DEEP' })],
      { backfill: false },
    )
    const project =
      projectId === undefined ? undefined : (await getProjectMarket(projectId))?.project
    if (!projectId || !project) throw new Error('not imported')
    // The backfill draws its next review as late as it can be (a day on): only the sample can
    // bring it forward.
    const backfillAt = (await own.chainTime()) + 60
    await own.mineAt(backfillAt)
    await backfillPriceHistory({
      projects: [project],
      now: new Date(backfillAt * 1000),
      random: () => 1 - 2 ** -40,
    })
    const chosen = await pathOf(projectId)

    // Act: withdraw and push, then the sampler two hours later.
    await own.withdrawV3Position(deep)
    await pushEmptyPool(own, deep.pool, token, 'up')
    const steeredHour = Math.ceil((await own.chainTime()) / HOUR) * HOUR
    const nextRun = steeredHour + HOUR + 60
    await own.mineAt(nextRun)
    await runPriceSampler(() => new Date(nextRun * 1000))
    const reviewed = await pathOf(projectId)

    // Assess: chosen with the attacker's pool alone, reviewed by the first run whose sample found
    // it empty, and the hour the attacker's pool was pushed reads the honest pools' median, to
    // the unit: the run rewrote it from them.
    const hour = await hourBucket(projectId, steeredHour, nextRun)
    const attacker = await aloneAverage(deep.pool, token, steeredHour)
    console.log(
      `capital-backed attack: chosen ${chosen.id} (next review ${chosen.nextReviewAt?.toISOString()}); ` +
        `reviewed ${reviewed.reviewedAt?.toISOString()}: ${reviewed.id}; the hour after the ` +
        `withdrawal $${usdOf(hour.averageE18)}, the attacker's pool alone $${usdOf(attacker)}`,
    )
    expect(poolsOf(chosen)).toContain(getAddress(deep.pool))
    expect(chosen.reviewedAt?.getTime()).toBe(backfillAt * 1000)
    expect(chosen.nextReviewAt?.getTime()).toBe(backfillAt * 1000 + 86_400_000)
    expect(reviewed.reviewedAt?.getTime()).toBe(nextRun * 1000)
    expect(poolsOf(reviewed)).not.toContain(getAddress(deep.pool))
    expect(hour.averageE18).toBe(
      await reference.averageE18(reviewed, BigInt(steeredHour), BigInt(steeredHour + HOUR)),
    )
    expect(Math.abs(usdOf(hour.averageE18) - 0.3)).toBeLessThan(0.003)
    expect(usdOf(attacker)).toBeGreaterThan(29)
  })

  it('reviews the path at every backfill: a pool emptied since the last one leaves it at once', async () => {
    const token = (await honestToken(own, 'AGAIN')).token
    const deep = await own.mintV3Position({
      tokenA: token,
      tokenB: usdc(),
      fee: 500,
      price: PRICE,
      ticksBelow: 300,
      ticksAbove: 300,
      amountA: 66_667n * TOKEN,
      amountB: 20_000n * USD,
    })
    const [projectId] = await importCatalogEntries([
      catalogEntry({ address: getAddress(token), decimals: 18, symbol: 'AGAIN' }),
    ])
    const project =
      projectId === undefined ? undefined : (await getProjectMarket(projectId))?.project
    if (!projectId || !project) throw new Error('not imported')
    const chosen = await pathOf(projectId)

    await own.withdrawV3Position(deep)
    await pushEmptyPool(own, deep.pool, token, 'up')
    const later = (await own.chainTime()) + 60
    await own.mineAt(later)
    await backfillPriceHistory({ projects: [project], now: new Date(later * 1000) })

    const reviewed = await pathOf(projectId)
    expect(poolsOf(chosen)).toContain(getAddress(deep.pool))
    expect(poolsOf(reviewed)).not.toContain(getAddress(deep.pool))
    expect(reviewed.reviewedAt?.getTime()).toBe(later * 1000)
  })
})
