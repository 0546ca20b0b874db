import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Pool } from '../../../../lib/routing/pools/pool'
import { priceSplitExactOut } from '../../../../lib/routing/search/priceSplitExactOut'
import { searchSplitExactOut } from '../../../../lib/routing/search/searchSplitExactOut'
import { C, TOKEN_IN, TOKEN_OUT, UNITS } from '../../../support/randomMarket'

// The exact-output search where its engine, the exact-input search, rounds against the split:
// token1 has 0 decimals (the devnets' WHOLE), so the exact-input figures floor each route's
// output to a whole unit, more than a second route saves on price. Exactly 427 units must arrive
// (half the only pair of token1), bought with C, which token0 reaches over a deep pair and a thin
// one: the split's gain is a few bps.

const WANTED = 427n

function pair(n: number, a: Address, b: Address, reserveA: bigint, reserveB: bigint): Pool {
  const [token0, token1, reserve0, reserve1] =
    a.toLowerCase() < b.toLowerCase() ? [a, b, reserveA, reserveB] : [b, a, reserveB, reserveA]
  return {
    protocol: 'v2',
    address: `0x${n.toString(16).padStart(40, '0')}`,
    token0,
    token1,
    state: { reserve0, reserve1, feeBps: 30 },
  }
}

const E18 = 10n ** 18n
const deep = pair(1, TOKEN_IN, C, 1_700_000n * E18, 1_700_000n * E18)
const thin = pair(2, TOKEN_IN, C, 35_000n * E18, 35_000n * E18)
const whole = pair(3, C, TOKEN_OUT, 34_160n * E18, 2n * WANTED)
const gasPrices = {
  // A gas unit costs 1e9 base units of token0 (18 decimals), nothing in whole units of token1.
  token0: { numerator: 10n ** 9n, denominator: 1n },
  token1: { numerator: 1n, denominator: 10n ** 6n },
}

const route = (first: Pool) => [
  { pool: first, tokenIn: TOKEN_IN, tokenOut: C },
  { pool: whole, tokenIn: C, tokenOut: TOKEN_OUT },
]

describe('searchSplitExactOut', () => {
  it('splits an output of a token of 0 decimals where the split costs less, within 1 bps of the best allocation of whole units over the two routes', () => {
    const answer = searchSplitExactOut({
      pools: [deep, thin, whole],
      tokenIn: TOKEN_IN,
      tokenOut: TOKEN_OUT,
      through: [C],
      amountOut: WANTED,
      units: UNITS,
      gasPrices,
    })
    // Every allocation of the 427 units over the two routes, each priced exactly in the
    // router's order (a route given nothing is left out, with its gas).
    let best: bigint | undefined
    for (let viaThin = 0n; viaThin <= WANTED; viaThin += 1n) {
      const legs = [
        { hops: route(deep), amountOut: WANTED - viaThin },
        { hops: route(thin), amountOut: viaThin },
      ]
      const { cost, complete } = priceSplitExactOut(legs, UNITS, gasPrices)
      if (complete && (best === undefined || cost < best)) best = cost
    }
    const single = priceSplitExactOut([{ hops: route(deep), amountOut: WANTED }], UNITS, gasPrices)

    expect(answer?.complete).toBe(true)
    expect(answer?.routes.reduce((sum, each) => sum + each.amountWanted, 0n)).toBe(WANTED)
    expect(answer?.routes).toHaveLength(2)
    expect(answer?.cost).toBeLessThan(single.cost)
    expect((answer?.cost ?? 0n) * 10_000n).toBeLessThanOrEqual((best ?? 0n) * 10_001n)
  })
})
