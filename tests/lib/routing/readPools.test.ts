import '../../support/env'
import { type Address, BaseError, getAddress } from 'viem'
import { getBlockNumber, readContract, simulateContract } from 'viem/actions'
import { describe, expect, inject, it } from 'vitest'
import { uniswapV2RouterAbi } from '../../../lib/chain/abis'
import { publicClient } from '../../../lib/chain/clients'
import { type Pool, quotePool } from '../../../lib/routing/pools/pool'
import { readPools } from '../../../lib/routing/providers/readPools'
import { db } from '../../../lib/db/client'
import { quoterV2Abi } from '../../../lib/local/v3Artifacts'
import { countRequests } from '../../support/requestCounters'
import { TESTED_NETWORKS } from '../../support/networkCases'

const NETWORKS = TESTED_NETWORKS

/** Every token the devnet pools: catalog, V3-only, zoo, base tokens. */
function devnetTokens(network: (typeof NETWORKS)[number]): Address[] {
  const deployed = inject('deployments')[network]
  const tokens = [
    deployed.wrappedNative,
    deployed.usdStablecoin,
    ...deployed.tokens.map((token) => token.address),
    ...deployed.v3OnlyTokens.map((token) => token.address),
  ]
  return [...new Set(tokens.map((token) => getAddress(token)))]
}

/** The chain's own answer: Router02's getAmountsOut (V2), QuoterV2 (V3); a revert as text. */
async function chainQuote(
  network: (typeof NETWORKS)[number],
  pool: Pool,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  blockNumber: bigint,
): Promise<bigint | string> {
  const deployed = inject('deployments')[network]
  const client = publicClient(network)
  try {
    if (pool.protocol === 'v2') {
      const amounts = await readContract(client, {
        address: deployed.router,
        abi: uniswapV2RouterAbi,
        functionName: 'getAmountsOut',
        args: [amountIn, [tokenIn, tokenOut]],
        blockNumber,
      })
      return amounts[1] ?? 0n
    }
    const { result } = await simulateContract(client, {
      address: deployed.v3.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn, tokenOut, amountIn, fee: pool.state.fee, sqrtPriceLimitX96: 0n }],
      blockNumber,
    })
    return result[0]
  } catch (error) {
    return error instanceof BaseError ? error.shortMessage : String(error)
  }
}

describe.each(NETWORKS)('readPools on %s', (network) => {
  it('reads every V2 pair and V3 pool of the devnet in one round trip, and prices each as the chain does', async () => {
    const deployed = inject('deployments')[network]
    const tokens = devnetTokens(network)
    const pairs: [Address, Address][] = []
    tokens.forEach((a, i) => tokens.slice(i + 1).forEach((b) => pairs.push([a, b])))
    // One block for the pools and the chain's answers: other files trade on the same devnet.
    const blockNumber = await getBlockNumber(publicClient(network), { cacheTime: 0 })
    const counter = countRequests(db())

    const pools = await readPools({ network, pairs, blockNumber })

    const { rpc } = counter.take()
    counter.stop()
    expect(rpc.roundTrips).toBe(1)
    const v3Addresses = new Set(
      pools.filter((p) => p.protocol === 'v3').map((p) => p.address.toLowerCase()),
    )
    for (const pool of deployed.v3.pools)
      expect(v3Addresses.has(pool.address.toLowerCase())).toBe(true)
    expect(v3Addresses.size).toBe(deployed.v3.pools.length)
    expect(pools.filter((p) => p.protocol === 'v2').length).toBeGreaterThan(0)

    for (const pool of pools) {
      for (const [tokenIn, tokenOut] of [
        [pool.token0, pool.token1],
        [pool.token1, pool.token0],
      ] as const) {
        for (const scale of [10n ** 3n, 10n ** 6n]) {
          // A thousandth and a millionth of the input side's reserve (V3: in-range virtual reserve).
          const depth =
            pool.protocol === 'v2'
              ? tokenIn === pool.token0
                ? pool.state.reserve0
                : pool.state.reserve1
              : tokenIn === pool.token0
                ? (pool.state.liquidity * 2n ** 96n) / pool.state.sqrtPriceX96
                : (pool.state.liquidity * pool.state.sqrtPriceX96) / 2n ** 96n
          const amountIn = depth / scale + 1n
          const ours = quotePool(pool, tokenIn, amountIn)
          const chain = await chainQuote(network, pool, tokenIn, tokenOut, amountIn, blockNumber)
          expect(ours.exact).toBe(true)
          expect({
            pool: pool.address,
            amountIn,
            fee: pool.protocol === 'v3' ? pool.state.fee : 0,
            tokenIn,
            out: ours.amountOut,
          }).toEqual({
            fee: pool.protocol === 'v3' ? pool.state.fee : 0,
            tokenIn,
            pool: pool.address,
            amountIn,
            out: chain,
          })
        }
      }
    }
  })
})
