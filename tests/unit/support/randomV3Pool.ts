import fc from 'fast-check'
import type { InitializedTick } from '../../../lib/routing/pools/v3Pool'
import { MAX_TICK, MIN_TICK, sqrtRatioAtTick } from '../../../lib/routing/pools/tickMath'

// Random concentrated-liquidity pools for property tests: positions placed around the price
// (narrow ones of a single tick spacing among them, some crossing bitmap words and the ±2 % band
// edges), the price anywhere in its tick or exactly on one, and the in-range liquidity derived
// from the positions as the contract keeps it.

export interface RandomV3Pool {
  fee: number
  tickSpacing: number
  tick: number
  sqrtPriceX96: bigint
  liquidity: bigint
  ticks: InitializedTick[]
}

export const UNISWAP_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 },
] as const
export const PANCAKE_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 2500, tickSpacing: 50 },
  { fee: 10000, tickSpacing: 200 },
] as const

const floorTo = (tick: number, spacing: number) => Math.floor(tick / spacing) * spacing

export const randomV3Pool = (tiers: readonly { fee: number; tickSpacing: number }[]) =>
  fc
    .record({
      tier: fc.constantFrom(...tiers),
      center: fc.integer({ min: -300_000, max: 300_000 }),
      positions: fc.array(
        fc.record({
          // Ticks from the price to the position's lower end (±2 % is about ±198 ticks).
          offset: fc.integer({ min: -900, max: 600 }),
          spacings: fc.oneof(
            fc.constant(1),
            fc.integer({ min: 1, max: 8 }),
            fc.integer({ min: 1, max: 900 }),
          ),
          liquidity: fc.oneof(
            fc.bigInt({ min: 1n, max: 10n ** 12n }),
            fc.bigInt({ min: 1n, max: 1n << 100n }),
          ),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      // Where the price sits: inside its tick, or exactly on a position's end.
      onBound: fc.option(fc.nat(), { nil: undefined }),
      fraction: fc.integer({ min: 0, max: 999_999 }),
    })
    .map(({ tier, center, positions, onBound, fraction }): RandomV3Pool => {
      const spacing = tier.tickSpacing
      const net = new Map<number, bigint>()
      const ranges = positions.map(({ offset, spacings, liquidity }) => {
        const low = Math.max(
          floorTo(MIN_TICK, spacing) + spacing,
          floorTo(center + offset, spacing),
        )
        const high = Math.min(floorTo(MAX_TICK, spacing), low + spacings * spacing)
        net.set(low, (net.get(low) ?? 0n) + liquidity)
        net.set(high, (net.get(high) ?? 0n) - liquidity)
        return { low, high, liquidity }
      })
      const bounds = ranges.flatMap(({ low, high }) => [low, high])
      const exact = onBound === undefined ? undefined : bounds[onBound % bounds.length]
      const tick = exact ?? center
      const lowPrice = sqrtRatioAtTick(tick)
      const sqrtPriceX96 =
        exact === undefined
          ? lowPrice + ((sqrtRatioAtTick(tick + 1) - 1n - lowPrice) * BigInt(fraction)) / 999_999n
          : lowPrice
      const liquidity = ranges
        .filter(({ low, high }) => low <= tick && tick < high)
        .reduce((sum, range) => sum + range.liquidity, 0n)
      const ticks = [...net.entries()]
        .filter(([, value]) => value !== 0n)
        .map(([index, liquidityNet]) => ({ index, liquidityNet }))
        .sort((a, b) => a.index - b.index)
      return { ...tier, tick, sqrtPriceX96, liquidity, ticks }
    })
    .filter((pool) => pool.ticks.length > 0)
