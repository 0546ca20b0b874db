import { Token } from '@uniswap/sdk-core'
import { Pool as SdkPool, Position, TickListDataProvider, v3Swap } from '@uniswap/v3-sdk'
import fc from 'fast-check'
import JSBI from 'jsbi'
import { describe, expect, it } from 'vitest'
import type { Pool } from '../../../../../lib/routing/pools/pool'
import { bandLimits, depthWithin, thinnerSide } from '../../../../../lib/routing/pools/poolDepth'
import { MAX_TICK, MIN_TICK, sqrtRatioAtTick } from '../../../../../lib/routing/pools/tickMath'
import {
  PANCAKE_TIERS,
  type RandomV3Pool,
  randomV3Pool,
  UNISWAP_TIERS,
} from '../../../support/randomV3Pool'

// The reference is the Uniswap V3 SDK's swap loop (v3Swap: not this project's code) run with an
// input no pool can absorb and the band's edge as its price limit: what it pays out is what the
// pool holds between its price and that edge. V2 pairs are held to the definition itself.

const SEED = 902_032
const TOKEN_A = new Token(1, '0x0000000000000000000000000000000000000001', 18)
const TOKEN_B = new Token(1, '0x0000000000000000000000000000000000000002', 18)
const UNBOUNDED = JSBI.BigInt((1n << 200n).toString())

const v3 = (pool: RandomV3Pool, known?: { lower: number; upper: number }): Pool => ({
  protocol: 'v3',
  address: '0x0000000000000000000000000000000000000003',
  token0: TOKEN_A.address as `0x${string}`,
  token1: TOKEN_B.address as `0x${string}`,
  state: { ...pool, ...(known ? { known } : {}) },
})

/** What the SDK's swap pays out on its way from the pool's price to `limit`. */
async function sdkPaidOut(pool: RandomV3Pool, zeroForOne: boolean, limit: bigint) {
  if (zeroForOne ? limit >= pool.sqrtPriceX96 : limit <= pool.sqrtPriceX96) return 0n
  const ticks = pool.ticks.map(({ index, liquidityNet }) => ({
    index,
    liquidityNet: JSBI.BigInt(liquidityNet.toString()),
    liquidityGross: JSBI.BigInt((liquidityNet < 0n ? -liquidityNet : liquidityNet).toString()),
  }))
  const { amountCalculated } = await v3Swap(
    JSBI.BigInt(pool.fee),
    JSBI.BigInt(pool.sqrtPriceX96.toString()),
    pool.tick,
    JSBI.BigInt(pool.liquidity.toString()),
    pool.tickSpacing,
    new TickListDataProvider(ticks, pool.tickSpacing),
    zeroForOne,
    UNBOUNDED,
    JSBI.BigInt(limit.toString()),
  )
  return -BigInt(amountCalculated.toString())
}

const bands = fc.oneof(fc.constant(200), fc.integer({ min: 1, max: 5_000 }))

describe('a pool’s depth within ±x % of its price', () => {
  it('places the band’s edges at the exact prices x % below and above, rounded inward', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 4_295_128_740n, max: 1n << 159n }),
        fc.integer({ min: 1, max: 9_999 }),
        (sqrtPrice, bps) => {
          const { lower, upper } = bandLimits(sqrtPrice, bps)
          const square = sqrtPrice * sqrtPrice
          // lower² ≥ P·(1 − x) > (lower − 1)², and upper² ≤ P·(1 + x) < (upper + 1)², in Q192.
          const down = square * BigInt(10_000 - bps)
          const up = square * BigInt(10_000 + bps)
          if (lower > 4_295_128_740n) {
            expect(lower * lower * 10_000n >= down).toBe(true)
            expect((lower - 1n) * (lower - 1n) * 10_000n < down).toBe(true)
          }
          expect(upper * upper * 10_000n <= up).toBe(true)
          expect((upper + 1n) * (upper + 1n) * 10_000n > up).toBe(true)
        },
      ),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('is, each way, what the SDK’s swap to the band’s edge pays out, on random Uniswap and PancakeSwap pools', async () => {
    let crossing = 0
    await fc.assert(
      fc.asyncProperty(
        randomV3Pool([...UNISWAP_TIERS, ...PANCAKE_TIERS]),
        bands,
        async (pool, bps) => {
          const { lower, upper } = bandLimits(pool.sqrtPriceX96, bps)
          const depth = depthWithin(v3(pool), bps)
          expect(depth).toEqual({
            amount0: await sdkPaidOut(pool, false, upper),
            amount1: await sdkPaidOut(pool, true, lower),
          })
          const inBand = pool.ticks.filter(({ index }) => {
            const price = sqrtRatioAtTick(index)
            return price > lower && price < upper
          })
          if (inBand.length > 0 && depth.amount0 > 0n && depth.amount1 > 0n) crossing += 1
        },
      ),
      { numRuns: 800, seed: SEED },
    )
    // Most cases cross initialized ticks inside the band with liquidity on both sides.
    expect(crossing).toBeGreaterThan(400)
  })

  it('counts nothing past the ticks that were read', async () => {
    await fc.assert(
      fc.asyncProperty(
        randomV3Pool(UNISWAP_TIERS),
        // As the lens reads them (V3PoolState.known): some spacings each way from the price,
        // down to none (a crowded word read no further than the price's own tick).
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 600 }),
        bands,
        async (pool, below, above, bps) => {
          const compressed = Math.floor(pool.tick / pool.tickSpacing)
          const known = {
            lower: Math.max(MIN_TICK, (compressed - below) * pool.tickSpacing),
            upper: Math.min(MAX_TICK, (compressed + 1 + above) * pool.tickSpacing),
          }
          const { lower, upper } = bandLimits(pool.sqrtPriceX96, bps)
          // A swap may reach the edges of what was read, not cross them.
          const floorEdge = sqrtRatioAtTick(known.lower)
          const ceilingEdge = sqrtRatioAtTick(known.upper)
          const expected = {
            amount0: await sdkPaidOut(pool, false, upper < ceilingEdge ? upper : ceilingEdge),
            amount1: await sdkPaidOut(pool, true, lower > floorEdge ? lower : floorEdge),
          }
          expect(depthWithin(v3(pool, known), bps)).toEqual(expected)
        },
      ),
      { numRuns: 500, seed: SEED },
    )
  })

  it('is, on a V2 pair, the most that leaves the price moved by no more than x % along x·y = k', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1n << 112n }),
        fc.bigInt({ min: 1n, max: 1n << 112n }),
        fc.integer({ min: 1, max: 9_999 }),
        (reserve0, reserve1, bps) => {
          const pair: Pool = {
            protocol: 'v2',
            address: '0x0000000000000000000000000000000000000004',
            token0: TOKEN_A.address as `0x${string}`,
            token1: TOKEN_B.address as `0x${string}`,
            state: { reserve0, reserve1, feeBps: 30 },
          }
          const { amount0, amount1 } = depthWithin(pair, bps)
          // Price falls to (1 − x)·y/x: y' = y·√(1 − x); the whole amount out leaves y' or more.
          const left1 = reserve1 - amount1
          expect(left1 * left1 * 10_000n >= reserve1 * reserve1 * BigInt(10_000 - bps)).toBe(true)
          expect(
            (left1 - 1n) * (left1 - 1n) * 10_000n < reserve1 * reserve1 * BigInt(10_000 - bps),
          ).toBe(true)
          // Price rises to (1 + x)·y/x: x' = x/√(1 + x).
          const left0 = reserve0 - amount0
          expect(left0 * left0 * BigInt(10_000 + bps) >= reserve0 * reserve0 * 10_000n).toBe(true)
          expect(
            (left0 - 1n) * (left0 - 1n) * BigInt(10_000 + bps) < reserve0 * reserve0 * 10_000n,
          ).toBe(true)
          expect(amount0 >= 0n && amount1 >= 0n).toBe(true)
        },
      ),
      { numRuns: 3_000, seed: SEED },
    )
  })

  it('gives a position one tick spacing wide its own tokens, where in-range liquidity × √P counted ~2,000 times them (fee 500)', () => {
    // A $1,000 position (500 USDC and 500 of a $1 token) around tick 0 at fee 500, spacing 10.
    const usd = new Token(1, TOKEN_B.address, 6)
    const token = new Token(1, TOKEN_A.address, 6)
    const sqrtPrice = sqrtRatioAtTick(3)
    const sdkPool = new SdkPool(token, usd, 500, sqrtPrice.toString(), '0', 3)
    const position = Position.fromAmounts({
      pool: sdkPool,
      tickLower: 0,
      tickUpper: 10,
      amount0: 500_000_000,
      amount1: 500_000_000,
      useFullPrecision: true,
    })
    const liquidity = BigInt(position.liquidity.toString())
    const pool: RandomV3Pool = {
      fee: 500,
      tickSpacing: 10,
      tick: 3,
      sqrtPriceX96: sqrtPrice,
      liquidity,
      ticks: [
        { index: 0, liquidityNet: liquidity },
        { index: 10, liquidityNet: -liquidity },
      ],
    }

    const depth = depthWithin(v3(pool), 200)

    // What it holds (the SDK's amounts, rounded up as a mint pays them): one unit at most more.
    const held0 = BigInt(position.amount0.quotient.toString())
    const held1 = BigInt(position.amount1.quotient.toString())
    expect(held0 - depth.amount0).toBeGreaterThanOrEqual(0n)
    expect(held0 - depth.amount0).toBeLessThanOrEqual(1n)
    expect(held1 - depth.amount1).toBeGreaterThanOrEqual(0n)
    expect(held1 - depth.amount1).toBeLessThanOrEqual(1n)
    // The measure it replaces: the in-range virtual reserve of token1, L·√P, per unit of capital.
    const virtual = (liquidity * sqrtPrice) >> 96n
    const perCapital = Number(virtual) / Number(held0 + held1)
    console.log(
      `one tick spacing at fee 500, $${Number(held0 + held1) / 1e6} of capital: L·√P ` +
        `$${Number(virtual) / 1e6} (${perCapital.toFixed(0)}×); ±2 % depth ` +
        `$${Number(thinnerSide(v3(pool), depth, true)) / 1e6} on its thinner side`,
    )
    expect(perCapital).toBeGreaterThan(1_900)
  })
})
