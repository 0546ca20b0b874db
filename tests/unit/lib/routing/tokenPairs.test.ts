import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { priceAtSqrt, midPrice } from '../../../../lib/routing/pools/midPrice'
import { sqrtRatioAtTick } from '../../../../lib/routing/pools/tickMath'
import {
  pairKey,
  pairsAlong,
  pairsToRead,
  pairsWith,
} from '../../../../lib/routing/providers/tokenPairs'

// Pair selection and the mid price, each written once (issue 42 item 2): what a quote, a pricing
// path and the market sync read, and a pool's price from its reserves or its sqrt price.

const A = '0x00000000000000000000000000000000000000Aa' as Address
const B = '0x00000000000000000000000000000000000000bB' as Address
const C = '0x00000000000000000000000000000000000000cc' as Address
const D = '0x00000000000000000000000000000000000000dd' as Address
const lower = (address: Address) => address.toLowerCase() as Address

describe('pair selection', () => {
  it('keys a pair the same whatever its order or casing', () => {
    expect(pairKey(A, B)).toBe(pairKey(lower(B), lower(A)))
    expect(pairKey(A, B)).not.toBe(pairKey(A, C))
  })

  it('reads every pair among a quote’s tokens once, ends first', () => {
    expect(pairsToRead(A, B, [C, lower(A), B])).toEqual([
      [A, B],
      [A, C],
      [B, C],
    ])
  })

  it('reads the pairs along routes once, in the order first met', () => {
    expect(
      pairsAlong([
        [A, C, B],
        [A, B],
        [B, lower(C)],
      ]),
    ).toEqual([
      [A, C],
      [C, B],
      [A, B],
    ])
  })

  it('pairs the market sync’s tokens with every known token, never two others together', () => {
    const pairs = pairsWith([A, B], [C, D, lower(A)]).map(([a, b]) => pairKey(a, b))

    expect(pairs.sort()).toEqual(
      [pairKey(A, B), pairKey(A, C), pairKey(A, D), pairKey(B, C), pairKey(B, D)].sort(),
    )
  })
})

describe('the mid price', () => {
  it('is a V3 pool’s sqrt price squared over 2^192, either way round', () => {
    const sqrt = sqrtRatioAtTick(23_027) // about 10 token1 per token0
    const price = priceAtSqrt(sqrt, true)
    const inverse = priceAtSqrt(sqrt, false)

    expect(price).toEqual({ num: sqrt * sqrt, den: 1n << 192n })
    expect(inverse).toEqual({ num: 1n << 192n, den: sqrt * sqrt })
    expect(Number(price.num) / Number(price.den)).toBeCloseTo(10, 3)
  })

  it('is a V2 pair’s reserve ratio, and the same fraction type for both pools', () => {
    const pair = {
      protocol: 'v2' as const,
      address: A,
      token0: A,
      token1: B,
      state: { reserve0: 4n, reserve1: 12n, feeBps: 30 },
    }

    expect(midPrice(pair, true)).toEqual({ num: 12n, den: 4n })
    expect(midPrice(pair, false)).toEqual({ num: 4n, den: 12n })
  })
})
