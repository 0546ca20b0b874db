import fc from 'fast-check'
import type { Address } from 'viem'
import type { Pool } from '../../lib/routing/pools/pool'
import { sqrtRatioAtTick } from '../../lib/routing/pools/tickMath'
import type { RouteGasUnits } from '../../lib/config'

// Random markets for the split search's properties (tests/unit/lib/routing/): pools of
// comparable prices on random pairs of four tokens, V2 and V3 mixed, so routes share pools.

export const TOKEN_IN = '0x00000000000000000000000000000000000000a1' as Address
export const TOKEN_OUT = '0x00000000000000000000000000000000000000b2' as Address
export const C = '0x00000000000000000000000000000000000000c3' as Address
export const D = '0x00000000000000000000000000000000000000d4' as Address
const PAIRS: [Address, Address][] = [
  [TOKEN_IN, TOKEN_OUT],
  [TOKEN_IN, C],
  [C, TOKEN_OUT],
  [TOKEN_IN, D],
  [D, TOKEN_OUT],
  [C, D],
]

export const UNITS: RouteGasUnits = {
  swap: 60_000n,
  route: 20_000n,
  v2Hop: 60_000n,
  v3Hop: 80_000n,
  tickCrossed: 25_000n,
}

const poolSpec = fc.record({
  pair: fc.integer({ min: 0, max: PAIRS.length - 1 }),
  v3: fc.boolean(),
  depth: fc.bigInt({ min: 10n ** 18n, max: 10n ** 22n }),
  skewBps: fc.integer({ min: -300, max: 300 }),
  tickOffset: fc.integer({ min: -30, max: 30 }),
  width: fc.integer({ min: 1, max: 20 }),
})

/** Pools of comparable prices (near 1:1) on random pairs of four tokens, V2 and V3 mixed. */
export const marketArbitrary = fc.array(poolSpec, { minLength: 2, maxLength: 6 }).map((specs) =>
  specs.map((spec, index): Pool => {
    const [a, b] = PAIRS[spec.pair] ?? [TOKEN_IN, TOKEN_OUT]
    const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
    const address = `0x${(index + 1).toString(16).padStart(40, '0')}` as const
    if (!spec.v3) {
      const reserve1 = (spec.depth * BigInt(10_000 + spec.skewBps)) / 10_000n
      return {
        protocol: 'v2',
        address,
        token0,
        token1,
        state: { reserve0: spec.depth, reserve1, feeBps: 30 },
      }
    }
    // A position of `width` spacings each side of the price, over a full-range one.
    const tick = spec.tickOffset * 10 + 3
    const floor = Math.floor(tick / 60) * 60
    const near = spec.depth * 20n
    return {
      protocol: 'v3',
      address,
      token0,
      token1,
      state: {
        sqrtPriceX96: sqrtRatioAtTick(tick),
        tick,
        liquidity: near + spec.depth,
        fee: 3000,
        tickSpacing: 60,
        ticks: [
          { index: -887220, liquidityNet: spec.depth },
          { index: floor - 60 * spec.width, liquidityNet: near },
          { index: floor + 60 * spec.width, liquidityNet: -near },
          { index: 887220, liquidityNet: -spec.depth },
        ],
      },
    }
  }),
)
