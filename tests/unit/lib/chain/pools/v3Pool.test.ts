import { Token } from '@uniswap/sdk-core'
import { CurrencyAmount } from '@uniswap/sdk-core'
import { Pool, TickListDataProvider, TickMath, v3Swap } from '@uniswap/v3-sdk'
import fc from 'fast-check'
import JSBI from 'jsbi'
import { describe, expect, it } from 'vitest'
import { type InitializedTick, v3SwapExactIn } from '../../../../../lib/chain/pools/v3Pool'
import { MAX_TICK, MIN_TICK, sqrtRatioAtTick } from '../../../../../lib/chain/pools/tickMath'

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

  it('counts the initialized ticks it crosses and says when the input ran past the known words', () => {
    const pool = {
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
    const small = v3SwapExactIn(pool, true, 10n ** 12n)
    expect(small).toMatchObject({ ticksCrossed: 0, complete: true, amountInUsed: 10n ** 12n })
    const large = v3SwapExactIn(pool, true, 10n ** 17n)
    expect(large.ticksCrossed).toBe(1)
    expect(large.complete).toBe(false)
    expect(large.amountInUsed).toBeLessThan(10n ** 17n)
    // Word 0 only: the swap down enters word -1, unread: it goes on to the next known tick and
    // says it is an estimate (here the same step the contract takes, so the same amount).
    const bounded = v3SwapExactIn({ ...pool, knownWords: { lower: 0, upper: 0 } }, true, 10n ** 15n)
    const unbounded = v3SwapExactIn(pool, true, 10n ** 15n)
    expect(bounded).toMatchObject({ exact: false, complete: true })
    expect(unbounded).toMatchObject({ exact: true, complete: true })
    expect(bounded.amountOut).toBe(unbounded.amountOut)
  })
})
