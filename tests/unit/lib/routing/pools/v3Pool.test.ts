import { Token } from '@uniswap/sdk-core'
import { CurrencyAmount } from '@uniswap/sdk-core'
import { Pool, TickListDataProvider, TickMath, v3Swap } from '@uniswap/v3-sdk'
import fc from 'fast-check'
import JSBI from 'jsbi'
import { describe, expect, it } from 'vitest'
import {
  type InitializedTick,
  v3StateAfter,
  v3SwapExactIn,
} from '../../../../../lib/routing/pools/v3Pool'
import {
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from '../../../../../lib/routing/pools/tickMath'

// The reference is the Uniswap V3 SDK (not this project's code): Pool.getOutputAmount for
// Uniswap's fee tiers, and its v3Swap loop for PancakeSwap's (2500 pips, spacing 50), which the
// SDK's Pool cannot hold.
const TOKEN_A = new Token(1, '0x0000000000000000000000000000000000000001', 18)
const TOKEN_B = new Token(1, '0x0000000000000000000000000000000000000002', 18)
const UNISWAP_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 },
] as const
const PANCAKE_TIER = { fee: 2500, tickSpacing: 50 } as const

interface RandomPool {
  fee: number
  tickSpacing: number
  tick: number
  sqrtPriceX96: bigint
  liquidity: bigint
  ticks: InitializedTick[]
}

/** Positions around the price (some crossing bitmap words), the pool's state derived from them. */
const poolArbitrary = (tiers: readonly { fee: number; tickSpacing: number }[]) =>
  fc
    .record({
      tier: fc.constantFrom(...tiers),
      positions: fc.array(
        fc.record({
          lower: fc.integer({ min: -700, max: 700 }),
          width: fc.integer({ min: 1, max: 600 }),
          liquidity: fc.bigInt({ min: 1n, max: 1n << 100n }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      tickOffset: fc.integer({ min: -800, max: 800 }),
      priceFraction: fc.double({ min: 0, max: 1, noNaN: true }),
      scale: fc.integer({ min: -3000, max: 3000 }),
    })
    .map(({ tier, positions, tickOffset, priceFraction, scale }): RandomPool => {
      const spacing = tier.tickSpacing
      const base = Math.round(scale / spacing) * spacing
      const net = new Map<number, bigint>()
      const ranges = positions.map(({ lower, width, liquidity }) => {
        const low = base + lower * spacing
        const high = low + width * spacing
        net.set(low, (net.get(low) ?? 0n) + liquidity)
        net.set(high, (net.get(high) ?? 0n) - liquidity)
        return { low, high, liquidity }
      })
      const tick = Math.min(MAX_TICK - 1, Math.max(MIN_TICK, base + tickOffset * 7))
      const lowPrice = sqrtRatioAtTick(tick)
      const highPrice = sqrtRatioAtTick(tick + 1)
      const span = highPrice - lowPrice
      const sqrtPriceX96 = lowPrice + (span * BigInt(Math.floor(priceFraction * 1e6))) / 1_000_000n
      const clamped = sqrtPriceX96 >= highPrice ? highPrice - 1n : sqrtPriceX96
      const liquidity = ranges
        .filter(({ low, high }) => low <= tick && tick < high)
        .reduce((sum, range) => sum + range.liquidity, 0n)
      const ticks = [...net.entries()]
        .filter(([, value]) => value !== 0n)
        .map(([index, liquidityNet]) => ({ index, liquidityNet }))
        .sort((a, b) => a.index - b.index)
      return { ...tier, tick, sqrtPriceX96: clamped, liquidity, ticks }
    })
    .filter((pool) => pool.ticks.length > 0)

const amountArbitrary = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 6n }),
  fc.bigInt({ min: 1n, max: 10n ** 18n }),
  fc.bigInt({ min: 1n, max: 10n ** 30n }),
)

function sdkTicks(pool: RandomPool) {
  return pool.ticks.map(({ index, liquidityNet }) => ({
    index,
    liquidityNet: JSBI.BigInt(liquidityNet.toString()),
    liquidityGross: JSBI.BigInt((liquidityNet < 0n ? -liquidityNet : liquidityNet).toString()),
  }))
}

async function sdkPoolOutput(pool: RandomPool, zeroForOne: boolean, amountIn: bigint) {
  const sdkPool = new Pool(
    TOKEN_A,
    TOKEN_B,
    pool.fee,
    JSBI.BigInt(pool.sqrtPriceX96.toString()),
    JSBI.BigInt(pool.liquidity.toString()),
    pool.tick,
    sdkTicks(pool),
  )
  const [out] = await sdkPool.getOutputAmount(
    CurrencyAmount.fromRawAmount(zeroForOne ? TOKEN_A : TOKEN_B, amountIn.toString()),
  )
  return BigInt(out.quotient.toString())
}

async function sdkLoopOutput(pool: RandomPool, zeroForOne: boolean, amountIn: bigint) {
  const { amountCalculated } = await v3Swap(
    JSBI.BigInt(pool.fee),
    JSBI.BigInt(pool.sqrtPriceX96.toString()),
    pool.tick,
    JSBI.BigInt(pool.liquidity.toString()),
    pool.tickSpacing,
    new TickListDataProvider(sdkTicks(pool), pool.tickSpacing),
    zeroForOne,
    JSBI.BigInt(amountIn.toString()),
    undefined,
  )
  return -BigInt(amountCalculated.toString())
}

describe('v3SwapExactIn', () => {
  it('computes the sqrt price of every tick as the SDK does', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK, max: MAX_TICK }), (tick) => {
        expect(sqrtRatioAtTick(tick)).toBe(BigInt(TickMath.getSqrtRatioAtTick(tick).toString()))
      }),
      { numRuns: 2000 },
    )
  })

  it('pays what the SDK Pool.getOutputAmount pays, on random Uniswap pools and amounts', async () => {
    await fc.assert(
      fc.asyncProperty(
        poolArbitrary(UNISWAP_TIERS),
        fc.boolean(),
        amountArbitrary,
        async (pool, zeroForOne, amountIn) => {
          const ours = v3SwapExactIn(pool, zeroForOne, amountIn)
          expect(ours.amountOut).toBe(await sdkPoolOutput(pool, zeroForOne, amountIn))
        },
      ),
      { numRuns: 600 },
    )
  })

  it("pays what the SDK's swap loop pays on PancakeSwap's 2500 tier (spacing 50)", async () => {
    await fc.assert(
      fc.asyncProperty(
        poolArbitrary([PANCAKE_TIER]),
        fc.boolean(),
        amountArbitrary,
        async (pool, zeroForOne, amountIn) => {
          const ours = v3SwapExactIn(pool, zeroForOne, amountIn)
          expect(ours.amountOut).toBe(await sdkLoopOutput(pool, zeroForOne, amountIn))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('leaves the pool as the SDK swap loop leaves it: price, liquidity and tick', async () => {
    await fc.assert(
      fc.asyncProperty(
        poolArbitrary([...UNISWAP_TIERS, PANCAKE_TIER]),
        fc.boolean(),
        amountArbitrary,
        async (pool, zeroForOne, amountIn) => {
          const ours = v3StateAfter(pool, v3SwapExactIn(pool, zeroForOne, amountIn))
          const sdk = await v3Swap(
            JSBI.BigInt(pool.fee),
            JSBI.BigInt(pool.sqrtPriceX96.toString()),
            pool.tick,
            JSBI.BigInt(pool.liquidity.toString()),
            pool.tickSpacing,
            new TickListDataProvider(sdkTicks(pool), pool.tickSpacing),
            zeroForOne,
            JSBI.BigInt(amountIn.toString()),
            undefined,
          )
          expect([ours.sqrtPriceX96, ours.liquidity, ours.tick]).toEqual([
            BigInt(sdk.sqrtRatioX96.toString()),
            BigInt(sdk.liquidity.toString()),
            sdk.tickCurrent,
          ])
        },
      ),
      { numRuns: 400 },
    )
  })

  it('finds the tick of any sqrt price as the SDK does', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), (sqrtPrice) => {
        expect(tickAtSqrtRatio(sqrtPrice)).toBe(
          TickMath.getTickAtSqrtRatio(JSBI.BigInt(sqrtPrice.toString())),
        )
      }),
      { numRuns: 2000 },
    )
  })

  const twoTickPool = {
    fee: 3000,
    tickSpacing: 60,
    tick: 0,
    sqrtPriceX96: sqrtRatioAtTick(0),
    liquidity: 10n ** 18n,
    ticks: [
      { index: -120, liquidityNet: 10n ** 18n },
      { index: 120, liquidityNet: -(10n ** 18n) },
    ],
  }

  it('counts the initialized ticks it crosses, and stops at the price limit', () => {
    const small = v3SwapExactIn(twoTickPool, true, 10n ** 12n)
    expect(small).toMatchObject({ ticksCrossed: 0, complete: true, amountInUsed: 10n ** 12n })
    const large = v3SwapExactIn(twoTickPool, true, 10n ** 17n)
    expect(large.ticksCrossed).toBe(1)
    expect(large.complete).toBe(false)
    expect(large.amountInUsed).toBeLessThan(10n ** 17n)
  })

  it('prices a pool as empty beyond the ticks read, never as if its liquidity went on', () => {
    // Known to tick -60 below the price: a tick may sit there, unread (issue 32's crowded word).
    const read = { ...twoTickPool, ticks: [], known: { lower: -60, upper: 60 } }
    const within = v3SwapExactIn(read, true, 10n ** 14n)
    expect(within).toMatchObject({ exact: true, complete: true })
    expect(within.amountOut).toBe(v3SwapExactIn(twoTickPool, true, 10n ** 14n).amountOut)
    const beyond = v3SwapExactIn(read, true, 10n ** 17n)
    // It stops at the edge with input left: exactly what the pool pays down to tick -60.
    const toEdge = v3SwapExactIn(twoTickPool, true, 10n ** 17n, sqrtRatioAtTick(-60))
    expect(beyond).toMatchObject({ exact: false, complete: false })
    expect([beyond.amountOut, beyond.amountInUsed, beyond.sqrtPriceX96After]).toEqual([
      toEdge.amountOut,
      toEdge.amountInUsed,
      sqrtRatioAtTick(-60),
    ])
    // Upward the same, at tick 60.
    const up = v3SwapExactIn(read, false, 10n ** 17n)
    expect(up).toMatchObject({
      exact: false,
      complete: false,
      sqrtPriceX96After: sqrtRatioAtTick(60),
    })
    // The range's own ends are no edge: known to MIN_TICK, the swap goes on to the next tick.
    const wide = { ...twoTickPool, known: { lower: MIN_TICK, upper: MAX_TICK } }
    expect(v3SwapExactIn(wide, true, 10n ** 17n)).toEqual(
      v3SwapExactIn(twoTickPool, true, 10n ** 17n),
    )
  })
})
