import '../../support/env'
import { type Address, formatUnits, getAddress, isAddressEqual } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPriceSampler } from '../../../functions/schedules/samplePrices'
import { importCatalogEntries } from '../../../lib/catalog/importCatalog'
import { depthWithin, thinnerSide } from '../../../lib/routing/pools/poolDepth'
import { readPools } from '../../../lib/routing/providers/readPools'
import { type PriceBucket, queryPriceWindow } from '../../../lib/db/priceBucket'
import { PRICE_GRAINS, type PriceGrain } from '../../../lib/db/priceGrains'
import { db } from '../../../lib/db/client'
import { getProjectMarket } from '../../../lib/db/marketStats'
import { backfillPriceHistory } from '../../../lib/markets/backfillPriceHistory'
import { windowStart } from '../../../lib/markets/priceGrains'
import { samplePrices } from '../../../lib/markets/samplePrices'
import { countRequests, type RequestTally } from '../../support/requestCounters'
import { type ReferencePath, TwapReference } from '../../support/independentTwap'
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

// Issue 39 item 6, "capital for one sampler tick around the review", replayed on a devnet and a
// table of this file's own: a token at $0.30 in a V2 pair and a wide V3 position; an attacker
// adds capital equal to their ±2 % depth (a little over, so half of the weight is surely its) to a
// pool of the same pair, holds it through the one sampler run that reviews the path, withdraws,
// and pushes its emptied pool to 1/100 of the price for gas alone; the sampler then runs every 5
// minutes for two hours. Every bucket written is held to the honest pools' own time-weighted
// averages over it, computed from raw eth_call reads (tests/support/independentTwap.ts).

const HOUR = 3600
const DAY = 24 * HOUR
const TICK = 300

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

/** Each pool of the token and the USD coin with its ±2 % depth in USDC, as the path rates it. */
async function depthsOf(token: Address): Promise<Map<string, { pool: Address; depth: bigint }>> {
  const pools = await readPools({ network: 'ethereum', pairs: [[token, usdc()]] })
  return new Map(
    pools.map((pool) => [
      pool.address.toLowerCase(),
      {
        pool: pool.address,
        depth: thinnerSide(pool, depthWithin(pool, 200), isAddressEqual(pool.token0, token)),
      },
    ]),
  )
}

/** A ±2 % position of the attacker's 0.05 % pool, funded with `usd` USDC and as many tokens. */
const attackerPosition = (token: Address, usd: bigint) =>
  own.mintV3Position({
    tokenA: token,
    tokenB: usdc(),
    fee: 500,
    price: PRICE,
    ticksBelow: 200,
    ticksAbove: 200,
    amountA: (usd * 10n * TOKEN) / (3n * USD),
    amountB: usd,
  })

const alone = (protocol: 'v2' | 'v3', pool: Address, token: Address): ReferencePath => ({
  hops: [{ protocol, pool, zeroForOne: BigInt(token) < BigInt(usdc()) }],
  tokenDecimals: 18,
  usdDecimals: 6,
})

/**
 * The attacker's capital: ±2 % positions in its pool holding half a percent more ±2 % depth than
 * the honest pools together (a first position, then one scaled to make up the rest).
 */
async function addHonestDepth(token: Address, attackerPool: Address) {
  const honest = [...(await depthsOf(token)).values()]
    .filter(({ pool }) => !isAddressEqual(pool, attackerPool))
    .reduce((sum, { depth }) => sum + depth, 0n)
  const positions: MintedPosition[] = [await attackerPosition(token, 1_000n * USD)]
  const first = (await depthsOf(token)).get(attackerPool.toLowerCase())?.depth ?? 0n
  const target = (honest * 1005n) / 1000n
  positions.push(await attackerPosition(token, (1_000n * USD * (target - first)) / first + USD))
  const attackerDepth = (await depthsOf(token)).get(attackerPool.toLowerCase())?.depth ?? 0n
  return { honest, attackerDepth, positions }
}

/**
 * Every bucket of every window at `now`, with the honest pools' own averages over it (lowest and
 * highest) and the attacker's pool's alone, from the reference's raw reads.
 */
async function everyBucket(
  projectId: string,
  now: Date,
  pools: { honest: readonly ReferencePath[]; attacker: ReferencePath },
) {
  const buckets: Array<PriceBucket & { grain: PriceGrain }> = []
  for (const grain of PRICE_GRAINS) {
    const { buckets: window } = await queryPriceWindow(projectId, grain, windowStart(grain, now))
    buckets.push(...window.map((bucket) => ({ ...bucket, grain })))
  }
  return Promise.all(
    buckets.map(async (bucket) => {
      const [from, to] = [bucket.start, bucket.coveredTo].map((at) =>
        BigInt(Math.floor(at.getTime() / 1000)),
      ) as [bigint, bigint]
      const range = await Promise.all(
        pools.honest.map((path) => reference.averageE18(path, from, to)),
      )
      return {
        bucket,
        low: range.reduce((a, b) => (a < b ? a : b)),
        high: range.reduce((a, b) => (a > b ? a : b)),
        attacker: await reference.averageE18(pools.attacker, from, to),
      }
    }),
  )
}

describe('capital held for one sampler tick around the review', () => {
  it('moves no bucket beyond the honest pools’ own averages', { timeout: 600_000 }, async () => {
    // Prepare: the honest pools ($0.30), and the attacker's 0.05 % pool made (and emptied) early,
    // so it has a history like any pool of the pair.
    const { token, wide } = await honestToken(own, 'ONETICK')
    const seed = await attackerPosition(token, 1n * USD)
    await own.withdrawV3Position(seed)
    const attackerPool = seed.pool
    const [projectId] = await importCatalogEntries([
      catalogEntry({ address: getAddress(token), decimals: 18, symbol: 'ONETICK' }),
    ])
    if (!projectId) throw new Error('not imported')
    const imported = await pathOf(projectId)

    // Act: half past the hour a day after the import (a review is due by then whatever its
    // schedule), the attacker adds capital equal to the honest ±2 % depth, scaled from a first
    // position. Half past, whatever the wall clock: the review's hour then holds samples after
    // the withdrawal (a review in an hour's last tick would be that bucket's only sample).
    const review = Math.ceil(((await own.chainTime()) + DAY) / HOUR) * HOUR + HOUR / 2
    await own.mineAt(review - 120)
    const { honest, attackerDepth, positions } = await addHonestDepth(token, attackerPool)
    await own.mineAt(review)
    await runPriceSampler(() => new Date(review * 1000))
    const reviewed = await pathOf(projectId)
    for (const position of positions) await own.withdrawV3Position(position)
    await pushEmptyPool(own, attackerPool, token, 'down')
    const end = Math.floor(review / HOUR) * HOUR + 2 * HOUR + TICK
    let runs = 1
    for (let at = review + TICK; at <= end; at += TICK) {
      await own.mineAt(at)
      await runPriceSampler(() => new Date(at * 1000))
      runs += 1
    }

    // Assess: every bucket of every window, against the honest pools' averages over it.
    const v2 = [...(await depthsOf(token)).values()].find(
      ({ pool }) => !isAddressEqual(pool, attackerPool) && !isAddressEqual(pool, wide.pool),
    )
    if (!v2) throw new Error('no V2 pair')
    const figures = await everyBucket(projectId, new Date(end * 1000), {
      honest: [alone('v2', v2.pool, token), alone('v3', wide.pool, token)],
      attacker: alone('v3', attackerPool, token),
    })
    const touched = figures.filter(({ bucket }) => bucket.coveredTo.getTime() >= review * 1000)
    console.log(
      `one-tick attack: honest ±2 % depth ${formatUnits(honest, 6)} USDC, the attacker's ` +
        `${formatUnits(attackerDepth, 6)}; path at import ${imported.id}, after the review ` +
        `${reviewed.id} (attacker's pool ${poolsOf(reviewed).includes(getAddress(attackerPool)) ? 'in' : 'not in'} it); ${runs} runs\n` +
        touched
          .map(
            ({ bucket, low, high, attacker }) =>
              `  ${bucket.grain} ${bucket.start.toISOString().slice(0, 13)}: $${usdOf(bucket.averageE18)} ` +
              `(honest $${usdOf(low)}–$${usdOf(high)}, the attacker's pool alone $${usdOf(attacker)})`,
          )
          .join('\n'),
    )
    expect(attackerDepth).toBeGreaterThanOrEqual(honest)
    expect(attackerDepth * 100n).toBeLessThan(honest * 102n)
    expect(touched.length).toBeGreaterThanOrEqual(4)
    // The review took the attacker's pool into the hop; no bucket weighs it: a later sample
    // found it empty.
    expect(poolsOf(reviewed)).toContain(getAddress(attackerPool))
    for (const { bucket } of touched) {
      expect(bucket.minDepths?.get(attackerPool.toLowerCase()) ?? 0n).toBe(0n)
    }
    for (const { bucket, low, high } of figures) {
      expect(bucket.averageE18).toBeGreaterThanOrEqual(low)
      expect(bucket.averageE18).toBeLessThanOrEqual(high)
    }
  })
})

describe('what a sampler run costs', () => {
  it('counts the RPC and DynamoDB calls of a run that reviews and of one that does not', async () => {
    // A token priced by two pools (V2 and a wide V3 position: a hop's median), backfilled with its
    // next review drawn as late as it can be (a day on).
    const { token } = await honestToken(own, 'COST')
    const [projectId] = await importCatalogEntries(
      [catalogEntry({ address: getAddress(token), decimals: 18, symbol: 'COST' })],
      { backfill: false },
    )
    const project =
      projectId === undefined ? undefined : (await getProjectMarket(projectId))?.project
    if (!projectId || !project) throw new Error('not imported')
    const backfillAt = (await own.chainTime()) + 60
    await own.mineAt(backfillAt)
    await backfillPriceHistory({
      projects: [project],
      now: new Date(backfillAt * 1000),
      random: () => 1 - 2 ** -40,
    })

    // Act: the run a day and a minute on (a review is due whatever its schedule, and the hours
    // and the day passed are closed), drawing its next review at once; the run 5 minutes later
    // (that review, no boundary: the open buckets alone), drawing the next half a day on; and one
    // more 5 minutes later (neither).
    const counter = countRequests(db())
    const tallies: Record<string, RequestTally> = {}
    const dayOn = backfillAt + DAY + 60
    const runs = [
      { name: 'review and boundaries', at: dayOn, random: () => 0 },
      { name: 'review alone', at: dayOn + TICK, random: () => 0.5 },
      { name: 'plain', at: dayOn + 2 * TICK, random: () => 0.5 },
    ]
    try {
      // In one hour, so the two later runs cross no boundary.
      const hourLeft = HOUR - (dayOn % HOUR)
      if (hourLeft <= 2 * TICK) await own.mineAt(dayOn)
      for (const run of runs) {
        if (hourLeft <= 2 * TICK) run.at += hourLeft
        await own.mineAt(run.at)
        counter.take()
        await samplePrices({
          clock: () => new Date(run.at * 1000),
          projects: [project],
          random: run.random,
        })
        tallies[run.name] = counter.take()
      }
    } finally {
      counter.stop()
    }
    const reviewed = await pathOf(projectId)
    console.log(
      `sampler run costs (one project, a hop of ${poolsOf(reviewed).length} pools): ` +
        Object.entries(tallies)
          .map(
            ([name, { rpc, dynamo }]) =>
              `${name}: ${rpc.calls} RPC calls in ${rpc.roundTrips} round trips ` +
              `${JSON.stringify(rpc.byMethod)}, ${dynamo.calls} DynamoDB calls ${JSON.stringify(dynamo.byCommand)}`,
          )
          .join('; '),
    )
    const plain = tallies.plain
    const review = tallies['review alone']
    if (!plain || !review) throw new Error('no tallies')
    expect(reviewed.reviewedAt?.getTime()).toBe((runs[1]?.at ?? 0) * 1000)
    // The sample is one lens eth_call beyond what the run read before (the quote, the supply,
    // the head and the pools' accumulators); a run that reviews takes its sample from the review.
    expect(review.dynamo.calls).toBe(plain.dynamo.calls + 1)
    expect(plain.dynamo.byCommand.UpdateItem).toBeGreaterThan(0)
  })
})
