import { describe, expect, it } from 'vitest'
import type { PoolAccumulators } from '../../../../lib/chain/readAccumulators'
import type { PathHop, PricingPath } from '../../../../lib/db/priceBoundary'
import {
  cumulativeAt,
  pathAverageE18,
  pathSpotE18,
} from '../../../../lib/markets/timeWeightedPrice'

const Q112 = 2n ** 112n
const TOKEN = '0x1000000000000000000000000000000000000001'
const WETH = '0x2000000000000000000000000000000000000002'
const USDC = '0x3000000000000000000000000000000000000003'
const POOL = '0x4000000000000000000000000000000000000004'

function v2(overrides: Partial<Extract<PoolAccumulators, { protocol: 'v2' }>> = {}) {
  return {
    protocol: 'v2' as const,
    price0CumulativeLast: 0n,
    price1CumulativeLast: 0n,
    // 1,000 tokens (18 decimals) against 15,500 USDC (6 decimals): $15.50.
    reserve0: 1_000n * 10n ** 18n,
    reserve1: 15_500n * 10n ** 6n,
    blockTimestampLast: 1_000,
    ...overrides,
  }
}

const hop = (overrides: Partial<PathHop> = {}): PathHop => ({
  protocol: 'v2',
  pool: POOL,
  tokenIn: TOKEN,
  tokenOut: USDC,
  zeroForOne: true,
  ...overrides,
})

const path = (hops: PathHop[], tokenDecimals = 18): PricingPath => ({
  id: 'test',
  hops,
  tokenDecimals,
  usdDecimals: 6,
})

describe('time-weighted prices from the accumulators', () => {
  it("extends a V2 pair's cumulative price to a later moment as Uniswap's oracle library does", () => {
    const pool = v2({ price0CumulativeLast: 123n, price1CumulativeLast: 456n })

    expect(cumulativeAt(pool, true, 1_100n)).toBe(
      123n + ((pool.reserve1 << 112n) / pool.reserve0) * 100n,
    )
    expect(cumulativeAt(pool, false, 1_100n)).toBe(
      456n + ((pool.reserve0 << 112n) / pool.reserve1) * 100n,
    )
    expect(cumulativeAt(pool, true, 1_000n)).toBe(123n)
  })

  it('counts the seconds across the uint32 timestamp wrap, and the cumulative across 2^256', () => {
    const price = (v2().reserve1 << 112n) / v2().reserve0
    const nearTop = 2n ** 256n - price * 5n
    const pool = v2({ blockTimestampLast: 2 ** 32 - 10, price0CumulativeLast: nearTop })

    // 2^32 + 5 is 5 in the pair's uint32 clock: 15 seconds after its last update.
    const end = cumulativeAt(pool, true, 2n ** 32n + 5n)

    expect(end).toBe(price * 10n)
    expect(pathAverageE18(path([hop()]), [nearTop], [end ?? 0n], 15n)).toBe(
      (price * 15n * 10n ** 36n) / (15n * Q112 * 10n ** 6n),
    )
  })

  it('gives $15.50 for a pair held at 15,500 USDC per 1,000 tokens, to within a rounding', () => {
    const pool = v2()
    const start = cumulativeAt(pool, true, 1_000n) ?? 0n
    const end = cumulativeAt(pool, true, 4_600n) ?? 0n

    const average = pathAverageE18(path([hop()]), [start], [end], 3_600n)

    expect(15_500_000_000_000_000_000n - average).toBeGreaterThanOrEqual(0n)
    expect(15_500_000_000_000_000_000n - average).toBeLessThan(10n ** 6n)
    expect(pathSpotE18(path([hop()]), [pool])).toBe(15_500_000_000_000_000_000n)
  })

  it("rounds a V3 pool's mean tick toward negative infinity, as OracleLibrary.consult does", () => {
    const v3Hop = hop({ protocol: 'v3' })
    const tokenToUsd = path([v3Hop], 6)
    const pool = (tickCumulative: bigint, tick: number): PoolAccumulators => ({
      protocol: 'v3',
      tickCumulative,
      timestamp: 100n,
      tick,
      sqrtPriceX96: 2n ** 96n,
    })

    // -7 over 2 seconds is a mean of -3.5: tick -4, not -3.
    const average = pathAverageE18(tokenToUsd, [0n], [-7n], 2n)
    const atTick = (tick: number) => pathAverageE18(tokenToUsd, [0n], [BigInt(tick) * 10n], 10n)

    expect(average).toBe(atTick(-4))
    expect(average).toBeLessThan(atTick(-3))
    // The tick holds from the block on: 10 seconds later it has added 10 ticks' worth.
    expect(cumulativeAt(pool(500n, -3), true, 110n)).toBe(470n)
  })

  it('chains the hops of a path and reads a pool in either direction', () => {
    // 1 token = 0.005 WETH (token1 of its pair is the token), 1 WETH = 3,000 USDC: $15.
    const tokenWeth = v2({ reserve0: 5n * 10n ** 18n, reserve1: 1_000n * 10n ** 18n })
    const wethUsdc = v2({ reserve0: 10n ** 18n, reserve1: 3_000n * 10n ** 6n })
    const chained = path([
      hop({ tokenIn: TOKEN, tokenOut: WETH, zeroForOne: false }),
      hop({ tokenIn: WETH, tokenOut: USDC, zeroForOne: true }),
    ])

    expect(pathSpotE18(chained, [tokenWeth, wethUsdc])).toBe(15n * 10n ** 18n)
    const start = [
      cumulativeAt(tokenWeth, false, 1_000n) ?? 0n,
      cumulativeAt(wethUsdc, true, 1_000n) ?? 0n,
    ]
    const end = [
      cumulativeAt(tokenWeth, false, 2_000n) ?? 0n,
      cumulativeAt(wethUsdc, true, 2_000n) ?? 0n,
    ]
    const average = pathAverageE18(chained, start, end, 1_000n)
    expect(Number(average) / 1e18).toBeCloseTo(15, 9)
  })

  it("prices a hop held by several pools at the depth-weighted median of the pools' averages, to the unit", () => {
    // Three pairs of the same tokens: $15.50 (depth 600), $15.60 (depth 500), $31.00 (depth d).
    const pools = [15_500n, 15_600n, 31_000n].map((usd) => v2({ reserve1: usd * 10n ** 6n }))
    const addresses = [POOL, WETH, TOKEN] as const
    const single = (index: number) => path([hop({ pool: addresses[index] })])
    const several = (attackerDepth: bigint) =>
      path([
        hop({
          pool: addresses[0],
          depth: '600',
          more: [
            { protocol: 'v2', pool: addresses[1], zeroForOne: true, depth: '500' },
            { protocol: 'v2', pool: addresses[2], zeroForOne: true, depth: String(attackerDepth) },
          ],
        }),
      ])
    const start = pools.map((pool) => cumulativeAt(pool, true, 1_000n) ?? 0n)
    const end = pools.map((pool) => cumulativeAt(pool, true, 4_600n) ?? 0n)
    const alone = (index: number) =>
      pathAverageE18(single(index), [start[index] ?? 0n], [end[index] ?? 0n], 3_600n)

    // 1,000 of 2,100 is less than half: the median is the $15.60 pool's own average, exactly.
    expect(pathAverageE18(several(1_000n), start, end, 3_600n)).toBe(alone(1))
    expect(pathSpotE18(several(1_000n), pools)).toBe(15_600n * 10n ** 15n)
    // 1,200 of 2,300 is more than half: it takes pools holding half the weight to move it.
    expect(pathAverageE18(several(1_200n), start, end, 3_600n)).toBe(alone(2))
  })

  it('prices the USD stablecoin itself at exactly 1, with no pool', () => {
    expect(pathAverageE18(path([], 6), [], [], 3_600n)).toBe(10n ** 18n)
    expect(pathSpotE18(path([], 6), [])).toBe(10n ** 18n)
  })
})
