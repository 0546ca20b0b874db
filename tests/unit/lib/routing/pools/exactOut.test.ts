import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { InsufficientReservesError, Pair } from '@uniswap/v2-sdk'
import { TickListDataProvider, v3Swap } from '@uniswap/v3-sdk'
import fc from 'fast-check'
import JSBI from 'jsbi'
import { describe, expect, it } from 'vitest'
import { swapPoolExactOut, v2AmountIn } from '../../../../../lib/routing/pools/poolExactOut'
import { v3StateAfter, type InitializedTick } from '../../../../../lib/routing/pools/v3Pool'
import { v3SwapExactOut } from '../../../../../lib/routing/pools/v3SwapExactOut'
import {
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  sqrtRatioAtTick,
} from '../../../../../lib/routing/pools/tickMath'

// The pools' exact-output math (DECISIONS §10.1) against the Uniswap SDKs, not this project's
// code: the V2 SDK's Pair.getInputAmount, and the V3 SDK's swap loop with a negative amount (the
// exact-output swap its Pool.getInputAmount runs), on Uniswap's tiers and PancakeSwap's 2500.
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

async function sdkExactOut(pool: RandomPool, zeroForOne: boolean, amountOut: bigint) {
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const result = await v3Swap(
    JSBI.BigInt(pool.fee),
    JSBI.BigInt(pool.sqrtPriceX96.toString()),
    pool.tick,
    JSBI.BigInt(pool.liquidity.toString()),
    pool.tickSpacing,
    new TickListDataProvider(sdkTicks(pool), pool.tickSpacing),
    zeroForOne,
    JSBI.BigInt((-amountOut).toString()),
    undefined,
  )
  const sqrtPriceX96 = BigInt(result.sqrtRatioX96.toString())
  return {
    amountIn: BigInt(result.amountCalculated.toString()),
    reachedLimit: sqrtPriceX96 === limit,
    sqrtPriceX96,
    liquidity: BigInt(result.liquidity.toString()),
    tick: result.tickCurrent,
  }
}

describe('v3SwapExactOut', () => {
  it("takes what the SDK's exact-output swap takes, and leaves the pool as it does, on random Uniswap and PancakeSwap pools", async () => {
    await fc.assert(
      fc.asyncProperty(
        poolArbitrary([...UNISWAP_TIERS, PANCAKE_TIER]),
        fc.boolean(),
        amountArbitrary,
        async (pool, zeroForOne, amountOut) => {
          const ours = v3SwapExactOut(pool, zeroForOne, amountOut)
          const sdk = await sdkExactOut(pool, zeroForOne, amountOut)
          expect(ours.amountIn).toBe(sdk.amountIn)
          if (ours.complete) {
            expect(ours.amountOut).toBe(amountOut)
            const after = v3StateAfter(pool, ours)
            expect([after.sqrtPriceX96, after.liquidity, after.tick]).toEqual([
              sdk.sqrtPriceX96,
              sdk.liquidity,
              sdk.tick,
            ])
          } else {
            // Short of the amount only where the price ran to its limit (the router reverts).
            expect(sdk.reachedLimit).toBe(true)
          }
        },
      ),
      { numRuns: 800 },
    )
  })

  it('pays exactly the amount asked when complete: the exact-input swap of what it takes pays at least that', async () => {
    const { v3SwapExactIn } = await import('../../../../../lib/routing/pools/v3Pool')
    fc.assert(
      fc.property(
        poolArbitrary([...UNISWAP_TIERS, PANCAKE_TIER]),
        fc.boolean(),
        amountArbitrary,
        (pool, zeroForOne, amountOut) => {
          const ours = v3SwapExactOut(pool, zeroForOne, amountOut)
          fc.pre(ours.complete)
          expect(v3SwapExactIn(pool, zeroForOne, ours.amountIn).amountOut).toBeGreaterThanOrEqual(
            amountOut,
          )
        },
      ),
      { numRuns: 400 },
    )
  })
})

describe('v2AmountIn', () => {
  it('takes what the SDK Pair.getInputAmount takes, and refuses what it refuses, on random reserves and amounts', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: (1n << 112n) - 1n }),
        fc.bigInt({ min: 1n, max: (1n << 112n) - 1n }),
        fc.bigInt({ min: 1n, max: 1n << 112n }),
        fc.boolean(),
        (reserve0, reserve1, amountOut, zeroForOne) => {
          const pair = new Pair(
            CurrencyAmount.fromRawAmount(TOKEN_A, reserve0.toString()),
            CurrencyAmount.fromRawAmount(TOKEN_B, reserve1.toString()),
          )
          const [reserveIn, reserveOut] = zeroForOne ? [reserve0, reserve1] : [reserve1, reserve0]
          const ours = v2AmountIn(amountOut, reserveIn, reserveOut, 30)
          let reference: bigint | undefined
          try {
            const [input] = pair.getInputAmount(
              CurrencyAmount.fromRawAmount(zeroForOne ? TOKEN_B : TOKEN_A, amountOut.toString()),
              false,
            )
            reference = BigInt(input.quotient.toString())
          } catch (error) {
            if (!(error instanceof InsufficientReservesError)) throw error
          }
          expect(ours).toBe(reference)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('prices a pair through swapPoolExactOut as v2AmountIn, the reserves moved by both amounts', () => {
    const pool = {
      protocol: 'v2' as const,
      address: '0x0000000000000000000000000000000000000003' as const,
      token0: TOKEN_A.address as `0x${string}`,
      token1: TOKEN_B.address as `0x${string}`,
      state: { reserve0: 10n ** 21n, reserve1: 2n * 10n ** 21n, feeBps: 25 },
    }
    const { quote, after } = swapPoolExactOut(pool, pool.token0, 10n ** 18n)
    expect(quote.amountIn).toBe(v2AmountIn(10n ** 18n, 10n ** 21n, 2n * 10n ** 21n, 25))
    expect(after.state).toEqual({
      reserve0: 10n ** 21n + quote.amountIn,
      reserve1: 2n * 10n ** 21n - 10n ** 18n,
      feeBps: 25,
    })
  })
})
