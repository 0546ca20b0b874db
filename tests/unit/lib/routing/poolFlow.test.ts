import fc from 'fast-check'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Pool } from '../../../../lib/routing/pools/pool'
import { fastRoute } from '../../../../lib/routing/search/fastModel'
import { enumeratePaths, type Hop } from '../../../../lib/routing/paths/enumeratePaths'
import { decomposeFlows, subsetsOf, unlimitedFlows } from '../../../../lib/routing/search/poolFlow'
import { searchSplit } from '../../../../lib/routing/search/searchSplit'
import { C, D, marketArbitrary, TOKEN_IN, TOKEN_OUT, UNITS } from '../../../support/randomMarket'

// The pool-level candidate generator of the split search (lib/routing/search/poolFlow.ts), on random
// markets whose routes share pools: the unlimited routing's pool flows conserve every token, the
// decomposition carries no more than the pools took, and the search it feeds never nets less
// than the best single route.

const amountArbitrary = fc.bigInt({ min: 10n ** 15n, max: 10n ** 23n })
const directed = (hop: Hop) => `${hop.pool.address}:${hop.tokenIn}`
const pathsOf = (pools: readonly Pool[]) =>
  enumeratePaths({ pools, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, through: [C, D] })
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))

describe('poolFlow', () => {
  it('routes the whole input with no limit on routes: the first hops take it all, and each connector token gives out what it took in', () => {
    fc.assert(
      fc.property(marketArbitrary, amountArbitrary, (pools, amount) => {
        const paths = pathsOf(pools)
        fc.pre(paths.length > 0)
        const amountIn = Number(amount)
        const flows = unlimitedFlows(paths, amountIn, 25, UNITS)
        const took = new Map<Address, number>()
        const gave = new Map<Address, number>()
        for (const pool of pools) {
          for (const [tokenIn, tokenOut] of [
            [pool.token0, pool.token1],
            [pool.token1, pool.token0],
          ] as const) {
            const flow = flows.get(directed({ pool, tokenIn, tokenOut }))
            if (!flow) continue
            expect(flow.in).toBeGreaterThan(0)
            expect(flow.out).toBeGreaterThanOrEqual(0)
            took.set(tokenIn, (took.get(tokenIn) ?? 0) + flow.in)
            gave.set(tokenOut, (gave.get(tokenOut) ?? 0) + flow.out)
          }
        }
        // The input token is only ever sold (paths are simple), the whole of it.
        expect(close(took.get(TOKEN_IN) ?? 0, amountIn + (gave.get(TOKEN_IN) ?? 0))).toBe(true)
        for (const token of [C, D]) {
          expect(close(took.get(token) ?? 0, gave.get(token) ?? 0), token).toBe(true)
        }
      }),
      { numRuns: 200, seed: 20261128 },
    )
  })

  it('decomposes the flows into paths that carry no more than the input, through no pool more than it took', () => {
    fc.assert(
      fc.property(marketArbitrary, amountArbitrary, (pools, amount) => {
        const paths = pathsOf(pools)
        fc.pre(paths.length > 0)
        const amountIn = Number(amount)
        const flows = unlimitedFlows(paths, amountIn, 25, UNITS)
        const found = decomposeFlows(paths, flows, amountIn, 50)
        expect(found.length).toBeGreaterThan(0)
        const carried = found.reduce((sum, entry) => sum + entry.amount, 0)
        expect(carried).toBeLessThanOrEqual(amountIn * (1 + 1e-9))
        // Each pool's input over the paths through it, scaled hop by hop at the pool's rate.
        const used = new Map<string, number>()
        for (const { index, amount: width } of found) {
          expect(width).toBeGreaterThan(amountIn * 1e-4)
          let scale = 1
          for (const hop of paths[index] ?? []) {
            const flow = flows.get(directed(hop))
            if (!flow) throw new Error('a decomposed path through a pool the routing left idle')
            used.set(directed(hop), (used.get(directed(hop)) ?? 0) + width * scale)
            scale *= flow.out / flow.in
          }
        }
        for (const [key, input] of used) {
          expect(input).toBeLessThanOrEqual((flows.get(key)?.in ?? 0) * (1 + 1e-9))
        }
        // The widest first.
        found.forEach((entry, position) => {
          if (position > 0)
            expect(entry.amount).toBeLessThanOrEqual(found[position - 1]?.amount ?? 0)
        })
      }),
      { numRuns: 200, seed: 20261129 },
    )
  })

  it('leaves nothing out of the decomposition where the paths share no pool: parallel routes carry the whole input', () => {
    fc.assert(
      fc.property(marketArbitrary, amountArbitrary, (pools, amount) => {
        // Only the direct pools and the C legs, one pool a pair at most: paths share no pool.
        const kept = pools.filter(
          (pool, index) =>
            [TOKEN_IN, TOKEN_OUT, C].includes(pool.token0) &&
            [TOKEN_IN, TOKEN_OUT, C].includes(pool.token1) &&
            pools.findIndex(
              (other) => other.token0 === pool.token0 && other.token1 === pool.token1,
            ) === index,
        )
        const paths = enumeratePaths({
          pools: kept,
          tokenIn: TOKEN_IN,
          tokenOut: TOKEN_OUT,
          through: [C],
        })
        fc.pre(paths.length > 0)
        const amountIn = Number(amount)
        const flows = unlimitedFlows(paths, amountIn, 25, UNITS)
        const found = decomposeFlows(paths, flows, amountIn, 50)
        const carried = found.reduce((sum, entry) => sum + entry.amount, 0)
        expect(close(carried, amountIn)).toBe(true)
        // And the pools' flows are those of the paths at the widths found.
        for (const { index, amount: width } of found) {
          const path = paths[index] ?? []
          expect(close(flows.get(directed(path[0] as Hop))?.in ?? 0, width)).toBe(true)
          expect(fastRoute(path, width, new Map(), false, UNITS).amountOut).toBeGreaterThan(0)
        }
      }),
      { numRuns: 200, seed: 20261130 },
    )
  })

  it('lists every set of a size once, in order', () => {
    expect(subsetsOf(4, 2)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ])
    expect(subsetsOf(6, 4)).toHaveLength(15)
    expect(subsetsOf(3, 4)).toEqual([])
    expect(subsetsOf(3, 3)).toEqual([[0, 1, 2]])
  })

  it('feeds a search that never nets less than the best single route, its routes at most 4 and its inputs the whole amount', () => {
    fc.assert(
      fc.property(
        marketArbitrary,
        amountArbitrary,
        fc.constantFrom(0n, 10n ** 6n, 10n ** 9n),
        (pools, amountIn, gasPrice) => {
          const parameters = {
            pools,
            tokenIn: TOKEN_IN,
            tokenOut: TOKEN_OUT,
            through: [C, D],
            amountIn,
            units: UNITS,
            gasPrice: { numerator: gasPrice, denominator: 1n },
          }
          const single = searchSplit({ ...parameters, maxRoutes: 1 })
          const split = searchSplit(parameters)
          if (!single) {
            expect(split).toBeUndefined()
            return
          }
          if (!split) throw new Error('no split where a single route pays')
          expect(split.net).toBeGreaterThanOrEqual(single.net)
          expect(split.routes.length).toBeLessThanOrEqual(4)
          expect(split.routes.reduce((sum, route) => sum + route.amountIn, 0n)).toBe(amountIn)
        },
      ),
      { numRuns: 200, seed: 20261131 },
    )
  })
})
