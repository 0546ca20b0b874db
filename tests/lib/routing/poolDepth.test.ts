import '../../support/env'
import type { Address } from 'viem'
import { getBlockNumber, simulateContract } from 'viem/actions'
import { describe, expect, inject, it } from 'vitest'
import { publicClient } from '../../../lib/chain/clients'
import { bandLimits, depthWithin } from '../../../lib/routing/pools/poolDepth'
import { readPools } from '../../../lib/routing/providers/readPools'
import { quoterV2Abi } from '../../../lib/local/v3Artifacts'
import { TESTED_NETWORKS } from '../../support/networkCases'

// The reference is the chain itself: the devnet's QuoterV2 runs the pool's own swap with an input
// no pool absorbs and the band's edge as its price limit, and says what it would pay out. Both
// read the same block, so the suite's other files trading on these pools cannot come between.

const UNBOUNDED = 1n << 128n

describe.each(TESTED_NETWORKS)(
  'the depth within two per cent of the price of the V3 pools of the %s devnet, read through the lens',
  (network) => {
    it('is, each way, what the chain’s QuoterV2 pays out on a swap to the band’s edge, at the same block', async () => {
      const deployed = inject('deployments')[network]
      const client = publicClient(network)
      const blockNumber = await getBlockNumber(client, { cacheTime: 0 })
      const pairs = new Map<string, [Address, Address]>()
      for (const pool of deployed.v3.pools)
        pairs.set(`${pool.token0}/${pool.token1}`, [pool.token0, pool.token1])
      const pools = (await readPools({ network, pairs: [...pairs.values()], blockNumber })).filter(
        (pool) => pool.protocol === 'v3',
      )
      const quote = async (tokenIn: Address, tokenOut: Address, fee: number, limit: bigint) => {
        const { result } = await simulateContract(client, {
          address: deployed.v3.quoter,
          abi: quoterV2Abi,
          functionName: 'quoteExactInputSingle',
          args: [{ tokenIn, tokenOut, amountIn: UNBOUNDED, fee, sqrtPriceLimitX96: limit }],
          blockNumber,
        })
        return result[0]
      }

      const compared = await Promise.all(
        pools.map(async (pool) => {
          if (pool.protocol !== 'v3') throw new Error('a V2 pair among the V3 pools')
          const { lower, upper } = bandLimits(pool.state.sqrtPriceX96, 200)
          const [up, down] = await Promise.all([
            quote(pool.token1, pool.token0, pool.state.fee, upper),
            quote(pool.token0, pool.token1, pool.state.fee, lower),
          ])
          return {
            ours: { pool: pool.address, ...depthWithin(pool, 200) },
            chain: { pool: pool.address, amount0: up, amount1: down },
          }
        }),
      )

      expect(pools.length).toBe(deployed.v3.pools.length)
      // Some band holds initialized ticks (read out of order by the lens) that the swap crosses.
      const crossing = pools.filter((pool) => {
        if (pool.protocol !== 'v3') return false
        const { tick, ticks } = pool.state
        return ticks.some(({ index }) => Math.abs(index - tick) < 198)
      })
      expect(crossing.length).toBeGreaterThan(0)
      for (const { ours, chain } of compared) {
        expect(ours).toEqual(chain)
        expect(chain.amount0 > 0n && chain.amount1 > 0n).toBe(true)
      }
    })
  },
)
