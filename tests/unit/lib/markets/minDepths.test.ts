import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { HopPool, PathHop, PricingPath } from '../../../../lib/db/priceBoundary'
import { foldDepthSample } from '../../../../lib/markets/minDepths'
import { pathAverageE18 } from '../../../../lib/markets/timeWeightedPrice'

// DECISIONS §10.4: a pool counts in a bucket's median by the smallest ±2 % depth it held over the
// bucket's samples. Generated buckets: honest pools with depths at every sample, and an attacker's
// pool that holds any depth at some samples but not at all of them (withdrawn, dust below what the
// honest pools always held, or not in the path at that sample). The bucket's price, through the
// service's own fold, weights, median and USD conversion, stays within the honest pools' own
// averages, whatever the attacker's pool says; capital held at every sample does count.

const SEED = 902_035
const SECONDS = 3_600n
const TOKEN = '0x1000000000000000000000000000000000000001'
const USDC = '0x3000000000000000000000000000000000000003'

const poolAddress = (index: number) => `0x${(index + 1).toString(16).padStart(40, '0')}` as const

/** A V2 pool whose average over the bucket is `priceX112` (UQ112x112 USDC units per token unit). */
const v2Pool = (index: number): HopPool => ({
  protocol: 'v2',
  pool: poolAddress(index),
  zeroForOne: true,
  depth: '1000000',
})

function pathOf(pools: HopPool[]): PricingPath {
  const [first, ...more] = pools
  if (!first) throw new Error('no pool')
  const hop: PathHop = {
    ...first,
    tokenIn: TOKEN,
    tokenOut: USDC,
    ...(more.length ? { more } : {}),
  }
  return { id: 'test', hops: [hop], tokenDecimals: 18, usdDecimals: 6 }
}

const priceX112 = fc.bigInt({ min: 1n, max: 1n << 120n })

const bucket = fc
  .record({
    honest: fc.array(priceX112, { minLength: 1, maxLength: 4 }),
    attackerPrice: priceX112,
    samples: fc.integer({ min: 2, max: 12 }),
  })
  .chain(({ honest, attackerPrice, samples }) =>
    fc.record({
      honest: fc.constant(honest),
      attackerPrice: fc.constant(attackerPrice),
      honestDepths: fc.array(
        fc.array(fc.bigInt({ min: 1n, max: 1_000_000n }), {
          minLength: honest.length,
          maxLength: honest.length,
        }),
        { minLength: samples, maxLength: samples },
      ),
      // At each sample: held (any depth, up to a thousand times the honest pools'), or not.
      attacker: fc
        .array(
          fc.oneof(
            fc.record({ held: fc.constant(true), depth: fc.bigInt({ min: 0n, max: 10n ** 9n }) }),
            fc.record({
              held: fc.constant(false),
              // A share of what the honest pools always held, below all of it; or unseen.
              share: fc.option(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })),
            }),
          ),
          { minLength: samples, maxLength: samples },
        )
        .filter((list) => list.some((sample) => !sample.held)),
    }),
  )

describe('a pool’s weight in a bucket is its smallest depth over the bucket’s samples', () => {
  it('an attacker’s pool holding depth at fewer than all samples never moves the bucket beyond the honest pools’ averages', () => {
    fc.assert(
      fc.property(bucket, ({ honest, attackerPrice, honestDepths, attacker }) => {
        const attackerIndex = honest.length
        const pools = [...honest.map((_, index) => v2Pool(index)), v2Pool(attackerIndex)]
        // What every honest pool held at every sample: the least of their smallest depths' sum.
        const honestFloor = honest
          .map((_, pool) =>
            honestDepths.reduce(
              (least, depths) => ((depths[pool] ?? 0n) < least ? (depths[pool] ?? 0n) : least),
              1n << 64n,
            ),
          )
          .reduce((sum, depth) => sum + depth, 0n)
        let minDepths: ReadonlyMap<string, bigint> | undefined
        honestDepths.forEach((depths, at) => {
          const sample = new Map(depths.map((depth, pool) => [poolAddress(pool), depth]))
          const attack = attacker[at]
          if (attack?.held) sample.set(poolAddress(attackerIndex), attack.depth)
          else if (attack && attack.share !== null) {
            const dust = (honestFloor * BigInt(Math.floor(attack.share * 1e6))) / 1_000_000n
            sample.set(poolAddress(attackerIndex), dust < honestFloor ? dust : honestFloor - 1n)
          }
          minDepths = foldDepthSample(minDepths, sample)
        })
        const prices = [...honest, attackerPrice]
        const start = prices.map(() => 0n)
        const end = prices.map((price) => price * SECONDS)
        const averageOf = (index: number) =>
          pathAverageE18(pathOf([v2Pool(index)]), [0n], [end[index] ?? 0n], SECONDS)
        const honestAverages = honest.map((_, index) => averageOf(index))
        const low = honestAverages.reduce((a, b) => (a < b ? a : b))
        const high = honestAverages.reduce((a, b) => (a > b ? a : b))

        const average = pathAverageE18(pathOf(pools), start, end, SECONDS, minDepths)

        expect(minDepths?.get(poolAddress(attackerIndex)) ?? 0n).toBeLessThan(honestFloor)
        expect(average).toBeGreaterThanOrEqual(low)
        expect(average).toBeLessThanOrEqual(high)
      }),
      { numRuns: 2_000, seed: SEED },
    )
  })

  it('counts capital held through every sample: more than all the honest depth moves the bucket to it', () => {
    fc.assert(
      fc.property(bucket, ({ honest, attackerPrice, honestDepths }) => {
        const attackerIndex = honest.length
        const pools = [...honest.map((_, index) => v2Pool(index)), v2Pool(attackerIndex)]
        const most = honestDepths.flat().reduce((sum, depth) => sum + depth, 0n)
        let minDepths: ReadonlyMap<string, bigint> | undefined
        for (const depths of honestDepths) {
          const sample = new Map(depths.map((depth, pool) => [poolAddress(pool), depth]))
          sample.set(poolAddress(attackerIndex), most + 1n)
          minDepths = foldDepthSample(minDepths, sample)
        }
        const end = [...honest, attackerPrice].map((price) => price * SECONDS)
        const alone = pathAverageE18(
          pathOf([v2Pool(attackerIndex)]),
          [0n],
          [end[attackerIndex] ?? 0n],
          SECONDS,
        )
        const average = pathAverageE18(
          pathOf(pools),
          end.map(() => 0n),
          end,
          SECONDS,
          minDepths,
        )
        expect(average).toBe(alone)
      }),
      { numRuns: 500, seed: SEED },
    )
  })

  it('folds a sample: the least so far; a pool unseen by a sample, or new to a sampled bucket, 0', () => {
    const first = new Map([
      ['a', 5n],
      ['b', 7n],
    ])
    expect(foldDepthSample(undefined, first)).toEqual(first)
    expect(foldDepthSample(first, undefined)).toBe(first)
    expect(
      foldDepthSample(
        first,
        new Map([
          ['a', 9n],
          ['c', 100n],
        ]),
      ),
    ).toEqual(
      new Map([
        ['a', 5n],
        ['b', 0n],
        ['c', 0n],
      ]),
    )
  })
})
