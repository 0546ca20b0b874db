import { type Address, getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Pool } from '../../../../lib/routing/pools/pool'
import type { BestRoute } from '../../../../lib/routing/quote/bestRoute'
import { searchSplit } from '../../../../lib/routing/search/searchSplit'
import { transactionShape } from '../../../../lib/routing/gas/gasModel'
import { describeBestRoute, largestRoutePath } from '../../../../lib/swap/routeAnswer'

// The §8.1 answer of an engine quote (issue 26): built from a real search over two V2 pools of
// one pair, deep enough alike that a large order splits; shares sum to 10,000 bps, every hop's
// amounts are the route's, and the amounts are decimal strings (no float loses digits).

const A: Address = '0x00000000000000000000000000000000000000a1'
const B: Address = '0x00000000000000000000000000000000000000b2'
const pool = (address: Address, feeBps: number): Pool => ({
  protocol: 'v2',
  address,
  token0: A,
  token1: B,
  state: { reserve0: 10n ** 24n, reserve1: 10n ** 24n, feeBps },
})

describe('describeBestRoute', () => {
  it('answers each route of a split with its share and per-hop amounts as decimal strings', () => {
    const amountIn = 10n ** 23n
    const split = searchSplit({
      pools: [
        pool('0x0000000000000000000000000000000000000001', 30),
        pool('0x0000000000000000000000000000000000000002', 25),
      ],
      tokenIn: A,
      tokenOut: B,
      through: [],
      amountIn,
      units: {
        swap: 60_000n,
        route: 20_000n,
        v2Hop: 60_000n,
        v3Hop: 80_000n,
        tickCrossed: 25_000n,
      },
      gasPrice: { numerator: 0n, denominator: 1n },
    })
    if (!split) throw new Error('no split')
    const shares = [6_000, 4_000]
    const best: BestRoute = {
      amountOut: split.amountOut,
      routes: split.routes.map((route, index) => ({
        amountIn: route.amountIn,
        shareBps: shares[index] ?? 0,
        hops: route.hops.map((hop) => ({ ...hop })),
      })),
      searchedAmountOut: split.amountOut,
      gas: split.gas,
      gasShape: transactionShape(
        split.routes.map((route) =>
          route.hops.map((hop) => ({
            protocol: hop.pool.protocol,
            ticksCrossed: hop.ticksCrossed,
          })),
        ),
        {
          nativeIn: false,
          nativeOut: false,
          legsPayRecipient: false,
          feeOnTransferHops: 0,
          freshRecipient: false,
        },
      ),
      gasPrice: 1n,
      gasCostToken1: 12_345n,
      priceImpactBps: 42,
      blockNumber: 99n,
      router: '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45',
      simulated: true,
      legsPayRecipient: false,
    }

    const answer = describeBestRoute(best)

    expect(answer.route.length).toBe(2)
    expect(answer.route.reduce((sum, route) => sum + route.shareBps, 0)).toBe(10_000)
    const hopsIn = answer.route.reduce(
      (sum, route) => sum + BigInt(route.hops[0]?.amountIn ?? '0'),
      0n,
    )
    expect(hopsIn).toBe(amountIn)
    const hopsOut = answer.route.reduce(
      (sum, route) => sum + BigInt(route.hops[0]?.amountOut ?? '0'),
      0n,
    )
    expect(answer.amountOut).toBe(hopsOut.toString())
    expect(answer.amountOut).toMatch(/^\d+$/)
    expect(answer).toMatchObject({
      priceImpactBps: 42,
      gasCostToken1: '12345',
      to: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
      blockNumber: 99,
    })
    expect(answer.route[0]?.hops[0]).toMatchObject({
      protocol: 'v2',
      tokenIn: getAddress(A),
      tokenOut: getAddress(B),
    })
    expect(answer.route[0]?.hops[0]).not.toHaveProperty('fee')
    expect(largestRoutePath(best)).toEqual([getAddress(A), getAddress(B)])
  })
})
