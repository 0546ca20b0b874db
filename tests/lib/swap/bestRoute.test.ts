import '../../support/env'
import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { Pair } from '@uniswap/v2-sdk'
import { TickListDataProvider, v3Swap } from '@uniswap/v3-sdk'
import JSBI from 'jsbi'
import { type Address, getAddress, parseUnits, zeroAddress } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { exactAmountOut } from '../../../lib/chain/bestAmountOut'
import { uniswapV2RouterAbi } from '../../../lib/chain/abis'
import { publicClient } from '../../../lib/chain/clients'
import { quoterV2Abi } from '../../../lib/local/v3Artifacts'
import { readContract, simulateContract } from 'viem/actions'
import type { Pool } from '../../../lib/chain/pools/pool'
import { readPools } from '../../../lib/chain/readPools'
import { db } from '../../../lib/db/client'
import { SAMPLE_CATALOG } from '../../../lib/local/sampleCatalog'
import { bestRoute, pairsToRead } from '../../../lib/swap/bestRoute'
import { countRequests } from '../../support/requestCounters'

// Proof against a reference (issue 26, DECISIONS §8.1): on every ordered pair of the devnet's
// catalog tokens at three sizes, the service's amountOut must reach the best single route a
// brute force finds over every pool of the devnet, priced with the Uniswap SDKs (not the
// service's pool math), on pool state read at the same block.

const NETWORKS = ['ethereum', 'altchain'] as const
type Network = (typeof NETWORKS)[number]
const USD_SIZES = ['100', '10000', '1000000']
const MIN_TICK = -887272
const MAX_TICK = 887272

interface CatalogToken {
  address: Address
  decimals: number
  usdPrice: string
}

function catalogTokens(network: Network): CatalogToken[] {
  const deployed = inject('deployments')[network]
  const catalog = SAMPLE_CATALOG[network]
  return [
    { address: deployed.wrappedNative, decimals: 18, usdPrice: catalog.nativeCurrency.usdPrice },
    { address: deployed.usdStablecoin, decimals: catalog.usdStablecoin.decimals, usdPrice: '1' },
    ...[...deployed.tokens, ...deployed.v3OnlyTokens].map((token) => ({
      address: token.address,
      decimals: token.decimals,
      usdPrice: token.usdPrice,
    })),
  ].map((token) => ({ ...token, address: getAddress(token.address) }))
}

const sdkToken = (address: Address) => new Token(1, address, 18)

/**
 * The pool's ticks for the SDK: those read, plus the positions beyond the words read closed at
 * the extreme usable ticks (the devnet's full-range positions), so the nets sum to zero.
 */
function sdkTicks(pool: Extract<Pool, { protocol: 'v3' }>) {
  const { ticks, tick, liquidity, tickSpacing } = pool.state
  const belowNet = ticks.filter((t) => t.index <= tick).reduce((sum, t) => sum + t.liquidityNet, 0n)
  const total = ticks.reduce((sum, t) => sum + t.liquidityNet, 0n)
  const lowest = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
  const highest = Math.floor(MAX_TICK / tickSpacing) * tickSpacing
  const missingBelow = liquidity - belowNet
  const list = [...ticks]
  if (missingBelow !== 0n) list.unshift({ index: lowest, liquidityNet: missingBelow })
  const missingAbove = -(total + missingBelow)
  if (missingAbove !== 0n) list.push({ index: highest, liquidityNet: missingAbove })
  return list.map(({ index, liquidityNet }) => ({
    index,
    liquidityNet: JSBI.BigInt(liquidityNet.toString()),
    liquidityGross: JSBI.BigInt((liquidityNet < 0n ? -liquidityNet : liquidityNet).toString()),
  }))
}

/** What one pool pays by the SDKs (0 where they refuse). */
async function sdkPoolOut(pool: Pool, tokenIn: Address, amountIn: bigint): Promise<bigint> {
  if (amountIn <= 0n) return 0n
  const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase()
  try {
    if (pool.protocol === 'v2') {
      const pair = new Pair(
        CurrencyAmount.fromRawAmount(sdkToken(pool.token0), pool.state.reserve0.toString()),
        CurrencyAmount.fromRawAmount(sdkToken(pool.token1), pool.state.reserve1.toString()),
      )
      const [out] = pair.getOutputAmount(
        CurrencyAmount.fromRawAmount(sdkToken(tokenIn), amountIn.toString()),
        false,
      )
      return BigInt(out.quotient.toString())
    }
    const { amountCalculated } = await v3Swap(
      JSBI.BigInt(pool.state.fee),
      JSBI.BigInt(pool.state.sqrtPriceX96.toString()),
      pool.state.tick,
      JSBI.BigInt(pool.state.liquidity.toString()),
      pool.state.tickSpacing,
      new TickListDataProvider(sdkTicks(pool), pool.state.tickSpacing),
      zeroForOne,
      JSBI.BigInt(amountIn.toString()),
      undefined,
    )
    return -BigInt(amountCalculated.toString())
  } catch {
    return 0n
  }
}

/** Every simple path of ≤ 3 hops over every pool, as pool lists with their token sequence. */
function everyPath(pools: readonly Pool[], tokenIn: Address, tokenOut: Address) {
  const paths: { pool: Pool; tokenIn: Address }[][] = []
  const walk = (token: Address, visited: string[], path: { pool: Pool; tokenIn: Address }[]) => {
    if (token.toLowerCase() === tokenOut.toLowerCase() && path.length > 0) {
      paths.push(path)
      return
    }
    if (path.length === 3) return
    for (const pool of pools) {
      const t0 = pool.token0.toLowerCase()
      const t1 = pool.token1.toLowerCase()
      const here = token.toLowerCase()
      const next = t0 === here ? pool.token1 : t1 === here ? pool.token0 : undefined
      if (!next || visited.includes(next.toLowerCase())) continue
      walk(next, [...visited, next.toLowerCase()], [...path, { pool, tokenIn: token }])
    }
  }
  walk(tokenIn, [tokenIn.toLowerCase()], [])
  return paths
}

/**
 * The best single route by the SDKs over every path, then that path priced again by the chain
 * itself at the same block (QuoterV2 / Router02, hop by hop): where a V3 pool's price has left the
 * ticks read, the SDK's view of the pool is only as good as its tick list, and the chain settles it.
 */
async function referenceBestSingle(
  network: Network,
  blockNumber: bigint,
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
) {
  let best = 0n
  let bestPath: { pool: Pool; tokenIn: Address }[] | undefined
  for (const path of everyPath(pools, tokenIn, tokenOut)) {
    let amount = amountIn
    for (const hop of path) amount = await sdkPoolOut(hop.pool, hop.tokenIn, amount)
    if (amount > best) {
      best = amount
      bestPath = path
    }
  }
  if (!bestPath) return 0n
  const deployed = inject('deployments')[network]
  const client = publicClient(network)
  let amount = amountIn
  for (const hop of bestPath) {
    const hopOut =
      hop.pool.token0.toLowerCase() === hop.tokenIn.toLowerCase()
        ? hop.pool.token1
        : hop.pool.token0
    try {
      if (hop.pool.protocol === 'v2') {
        const amounts = await readContract(client, {
          address: deployed.router,
          abi: uniswapV2RouterAbi,
          functionName: 'getAmountsOut',
          args: [amount, [hop.tokenIn, hopOut]],
          blockNumber,
        })
        amount = amounts[1] ?? 0n
      } else {
        const { result } = await simulateContract(client, {
          address: deployed.v3.quoter,
          abi: quoterV2Abi,
          functionName: 'quoteExactInputSingle',
          args: [
            {
              tokenIn: hop.tokenIn,
              tokenOut: hopOut,
              amountIn: amount,
              fee: hop.pool.state.fee,
              sqrtPriceLimitX96: 0n,
            },
          ],
          blockNumber,
        })
        amount = result[0]
      }
    } catch {
      return 0n
    }
  }
  return amount
}

/** Ranked by output alone (gas left out), the search reaches the reference at its block. */
async function reachesByOutputAlone(
  parameters: Parameters<typeof bestRoute>[0],
  referencePools: (blockNumber: bigint) => Promise<Pool[]>,
): Promise<boolean> {
  const byOutput = await bestRoute({ ...parameters, ignoreGas: true })
  const pools = await referencePools(byOutput.blockNumber)
  const reference = await referenceBestSingle(
    parameters.network,
    byOutput.blockNumber,
    pools,
    parameters.tokenIn,
    parameters.tokenOut,
    parameters.amountIn,
  )
  return byOutput.amountOut + 1n >= reference
}

describe.each(NETWORKS)('bestRoute on %s against the SDK brute force', (network) => {
  it('reaches the best single route on every ordered pair of catalog tokens at three sizes, in 2 round trips', async () => {
    const tokens = catalogTokens(network)
    const addresses = tokens.map((token) => token.address)
    const pairs = pairsToRead(addresses[0] ?? zeroAddress, addresses[1] ?? zeroAddress, addresses)
    // Other files trade on the same devnet: the reference reads the block each quote read.
    const poolsAt = new Map<bigint, Promise<Pool[]>>()
    const referencePools = (blockNumber: bigint) => {
      let pools = poolsAt.get(blockNumber)
      if (!pools) {
        pools = readPools({ network, pairs, blockNumber })
        poolsAt.set(blockNumber, pools)
      }
      return pools
    }
    const tally = {
      equal: 0,
      better: 0,
      gasChoice: 0,
      worse: 0,
      v2Only: [] as number[],
      roundTrips: [] as number[],
      calls: [] as number[],
      failures: [] as string[],
    }
    for (const from of tokens) {
      for (const to of tokens) {
        if (from.address === to.address) continue
        for (const usd of USD_SIZES) {
          const amountIn = parseUnits(
            (Number(usd) / Number(from.usdPrice)).toFixed(from.decimals > 6 ? 6 : from.decimals),
            from.decimals,
          )
          if (amountIn === 0n) continue
          const parameters = {
            network,
            tokenIn: from.address,
            tokenOut: to.address,
            amountIn,
            nativeIn: false,
            nativeOut: false,
            recipient: zeroAddress,
            connectorCandidates: addresses,
          }
          await bestRoute(parameters) // warm: the input token's balance slot is known after this
          const counter = countRequests(db())
          const ours = await bestRoute(parameters)
          const { rpc } = counter.take()
          counter.stop()
          tally.roundTrips.push(rpc.roundTrips)
          tally.calls.push(rpc.calls)
          const reference = await referenceBestSingle(
            network,
            ours.blockNumber,
            await referencePools(ours.blockNumber),
            from.address,
            to.address,
            amountIn,
          )
          if (ours.amountOut + 1n >= reference) {
            if (ours.amountOut > reference + 1n) tally.better += 1
            else tally.equal += 1
          } else if (await reachesByOutputAlone(parameters, referencePools)) {
            // Ranked net of gas, a shorter route won: ranked by output alone the search reaches it.
            tally.gasChoice += 1
          } else {
            tally.worse += 1
            tally.failures.push(
              `${from.address}->${to.address} ${usd}$: ours ${ours.amountOut} < reference ${reference}`,
            )
          }
          const v2 = await exactAmountOut({ ...parameters, recipient: zeroAddress }).catch(
            () => undefined,
          )
          if (v2 && v2.amountOut > 0n) {
            tally.v2Only.push(Number(((ours.amountOut - v2.amountOut) * 10_000n) / v2.amountOut))
          }
        }
      }
    }
    const sorted = [...tally.v2Only].sort((a, b) => a - b)
    console.log(
      `${network}: equal ${tally.equal}, better ${tally.better}, less output but more net of gas ${tally.gasChoice}, worse ${tally.worse}; ` +
        `median improvement over V2-only ${sorted[Math.floor(sorted.length / 2)]} bps (${sorted.length} quotes with a V2 route); ` +
        `round trips per warm quote max ${Math.max(...tally.roundTrips)}, calls max ${Math.max(...tally.calls)}`,
    )
    expect(tally.failures).toEqual([])
    expect(Math.max(...tally.roundTrips)).toBeLessThanOrEqual(2)
  })
})
