import fc from 'fast-check'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Pool } from '../../../../../lib/chain/pools/pool'
import {
  bestSplit,
  candidateRoutes,
  DEFAULT_GAS_MODEL,
  type GasPriceInToken1,
  type Hop,
  quoteRoute,
  SPLIT_PARTS,
} from '../../../../../lib/chain/pools/searchRoutes'
import { sqrtRatioAtTick } from '../../../../../lib/chain/pools/tickMath'

const TOKEN_IN = '0x00000000000000000000000000000000000000a1' as Address
const TOKEN_OUT = '0x00000000000000000000000000000000000000b2' as Address
const CONNECTOR_C = '0x00000000000000000000000000000000000000c3' as Address
const CONNECTOR_D = '0x00000000000000000000000000000000000000d4' as Address
const PAIRS: [Address, Address][] = [
  [TOKEN_IN, TOKEN_OUT],
  [TOKEN_IN, CONNECTOR_C],
  [CONNECTOR_C, TOKEN_OUT],
  [TOKEN_IN, CONNECTOR_D],
  [CONNECTOR_D, TOKEN_OUT],
  [CONNECTOR_C, CONNECTOR_D],
]

const poolSpec = fc.record({
  pair: fc.integer({ min: 0, max: PAIRS.length - 1 }),
  v3: fc.boolean(),
  depth: fc.bigInt({ min: 10n ** 15n, max: 10n ** 21n }),
  skewBps: fc.integer({ min: -2000, max: 2000 }),
  tickOffset: fc.integer({ min: -40, max: 40 }),
})

/** Pools of comparable prices (near 1:1) on random pairs of four tokens, V2 and V3 mixed. */
const marketArbitrary = fc.array(poolSpec, { minLength: 1, maxLength: 7 }).map((specs) =>
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
    const tick = spec.tickOffset * 60 + 7
    const liquidity = spec.depth
    return {
      protocol: 'v3',
      address,
      token0,
      token1,
      state: {
        sqrtPriceX96: sqrtRatioAtTick(tick),
        tick,
        liquidity,
        fee: 3000,
        tickSpacing: 60,
        ticks: [
          { index: tick - 7 - 600, liquidityNet: liquidity },
          { index: tick - 7 + 600, liquidityNet: -liquidity },
        ],
      },
    }
  }),
)

const gasPriceArbitrary = fc.oneof(
  fc.constant<GasPriceInToken1>({ numerator: 0n, denominator: 1n }),
  fc
    .bigInt({ min: 1n, max: 10n ** 12n })
    .map((numerator): GasPriceInToken1 => ({ numerator, denominator: 1n })),
)

/** Every simple path of ≤ 3 hops over every pool, written without the search's code. */
function everyRoute(pools: readonly Pool[]): Hop[][] {
  const routes: Hop[][] = []
  const walk = (token: Address, visited: Address[], route: Hop[]) => {
    if (token === TOKEN_OUT && route.length > 0) {
      routes.push(route)
      return
    }
    if (route.length === 3) return
    for (const pool of pools) {
      const next =
        pool.token0 === token ? pool.token1 : pool.token1 === token ? pool.token0 : undefined
      if (!next || visited.includes(next)) continue
      walk(next, [...visited, next], [...route, { pool, tokenIn: token, tokenOut: next }])
    }
  }
  walk(TOKEN_IN, [TOKEN_IN], [])
  return routes
}

/** The best net output over every set of ≤ 4 routes sharing no pool, every 5 % split. */
function bruteForceBest(
  routes: Hop[][],
  amountIn: bigint,
  gasPrice: GasPriceInToken1,
  maxRoutes: number,
): bigint | undefined {
  const cost = (gas: bigint) => (gas * gasPrice.numerator) / gasPrice.denominator
  const netOf = (route: Hop[], parts: number) => {
    const quote = quoteRoute(
      route,
      (amountIn * BigInt(parts)) / BigInt(SPLIT_PARTS),
      DEFAULT_GAS_MODEL,
    )
    return quote.amountOut > 0n ? quote.amountOut - cost(quote.gas) : undefined
  }
  let best: bigint | undefined
  const visit = (
    from: number,
    partsLeft: number,
    used: Set<string>,
    count: number,
    net: bigint,
  ) => {
    if (partsLeft === 0) {
      const total = net - cost(DEFAULT_GAS_MODEL.transaction)
      if (best === undefined || total > best) best = total
      return
    }
    if (count === maxRoutes) return
    for (let index = from; index < routes.length; index += 1) {
      const route = routes[index] ?? []
      if (route.some((hop) => used.has(hop.pool.address))) continue
      const nextUsed = new Set([...used, ...route.map((hop) => hop.pool.address)])
      for (let parts = 1; parts <= partsLeft; parts += 1) {
        const routeNet = netOf(route, parts)
        if (routeNet !== undefined)
          visit(index + 1, partsLeft - parts, nextUsed, count + 1, net + routeNet)
      }
    }
  }
  visit(0, SPLIT_PARTS, new Set(), 0, 0n)
  return best
}

const amountArbitrary = fc.bigInt({ min: 1n, max: 10n ** 19n }).map((amount) => amount * 20n)

describe('bestSplit', () => {
  it('considers every route a brute force finds among the base tokens and connectors', () => {
    fc.assert(
      fc.property(marketArbitrary, (pools) => {
        const ours = candidateRoutes({
          pools,
          tokenIn: TOKEN_IN,
          tokenOut: TOKEN_OUT,
          connectors: [CONNECTOR_C, CONNECTOR_D],
        })
        const key = (route: Hop[]) => route.map((hop) => hop.pool.address).join('>')
        // At most 3 pools per pair are generated only when the draw repeats a pair 4 times.
        const everyKey = new Set(everyRoute(pools).map(key))
        const oursKeys = new Set(ours.map(key))
        for (const routeKey of oursKeys) expect(everyKey.has(routeKey)).toBe(true)
        const crowded = PAIRS.some(
          ([a, b]) =>
            pools.filter(
              (p) => [p.token0, p.token1].includes(a) && [p.token0, p.token1].includes(b),
            ).length > 2,
        )
        if (!crowded) expect(oursKeys).toEqual(everyKey)
      }),
      { numRuns: 300 },
    )
  })

  it('never nets less than the best single route by brute force', () => {
    fc.assert(
      fc.property(
        marketArbitrary,
        amountArbitrary,
        gasPriceArbitrary,
        (pools, amountIn, gasPrice) => {
          const routes = everyRoute(pools)
          fc.pre(routes.length <= 8)
          const reference = bruteForceBest(routes, amountIn, gasPrice, 1)
          const ours = bestSplit({
            pools,
            tokenIn: TOKEN_IN,
            tokenOut: TOKEN_OUT,
            connectors: [CONNECTOR_C, CONNECTOR_D],
            amountIn,
            gasPrice,
          })
          if (reference === undefined) return
          expect(ours).toBeDefined()
          expect(ours?.net).toBeGreaterThanOrEqual(reference)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('finds the best split over up to 4 disjoint routes that a brute force finds', () => {
    fc.assert(
      fc.property(
        marketArbitrary,
        amountArbitrary,
        gasPriceArbitrary,
        (pools, amountIn, gasPrice) => {
          const routes = everyRoute(pools)
          fc.pre(routes.length <= 6)
          const reference = bruteForceBest(routes, amountIn, gasPrice, 4)
          const ours = bestSplit({
            pools,
            tokenIn: TOKEN_IN,
            tokenOut: TOKEN_OUT,
            connectors: [CONNECTOR_C, CONNECTOR_D],
            amountIn,
            gasPrice,
          })
          if (reference === undefined) return
          // With ≤ 6 routes every route is kept at every size, so the search is exhaustive.
          expect(ours?.net).toBe(reference)
          expect(ours?.routes.reduce((sum, route) => sum + route.amountIn, 0n)).toBe(amountIn)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('splits a large order between two equal pools and keeps a small one whole when gas costs', () => {
    const twin = (address: Address): Pool => ({
      protocol: 'v2',
      address,
      token0: TOKEN_IN,
      token1: TOKEN_OUT,
      state: { reserve0: 10n ** 20n, reserve1: 10n ** 20n, feeBps: 30 },
    })
    const pools = [
      twin('0x0000000000000000000000000000000000000001'),
      twin('0x0000000000000000000000000000000000000002'),
    ]
    const large = bestSplit({
      pools,
      tokenIn: TOKEN_IN,
      tokenOut: TOKEN_OUT,
      connectors: [],
      amountIn: 10n ** 19n,
      gasPrice: { numerator: 10n ** 9n, denominator: 1n },
    })
    expect(large?.routes.map((route) => route.parts)).toEqual([10, 10])
    const small = bestSplit({
      pools,
      tokenIn: TOKEN_IN,
      tokenOut: TOKEN_OUT,
      connectors: [],
      amountIn: 10n ** 12n,
      gasPrice: { numerator: 10n ** 9n, denominator: 1n },
    })
    expect(small?.routes.map((route) => route.parts)).toEqual([20])
  })
})
