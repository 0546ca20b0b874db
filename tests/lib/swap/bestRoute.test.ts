import { NETWORK_NAMES } from '../../../lib/networkNames'
import '../../support/env'
import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { Pair } from '@uniswap/v2-sdk'
import { TickListDataProvider, v3Swap } from '@uniswap/v3-sdk'
import JSBI from 'jsbi'
import { type Address, getAddress, parseUnits, zeroAddress } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { bestAmountOut } from '../../../lib/chain/bestAmountOut'
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

const NETWORKS = NETWORK_NAMES
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
  const [best] = await rankedPaths(pools, tokenIn, tokenOut, amountIn)
  if (!best || best.out === 0n) return 0n
  return chainPathOut(network, blockNumber, best.path, amountIn)
}

/** Every path of ≤ 3 hops priced by the SDKs at `amountIn`, the best first. */
async function rankedPaths(
  pools: readonly Pool[],
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
): Promise<{ path: ReferencePath; out: bigint }[]> {
  const ranked: { path: ReferencePath; out: bigint }[] = []
  for (const path of everyPath(pools, tokenIn, tokenOut)) {
    ranked.push({ path, out: await sdkPathOut(path, amountIn) })
  }
  return ranked.sort((x, y) => (x.out === y.out ? 0 : x.out > y.out ? -1 : 1))
}

type ReferencePath = { pool: Pool; tokenIn: Address }[]

async function sdkPathOut(path: ReferencePath, amountIn: bigint): Promise<bigint> {
  let amount = amountIn
  for (const hop of path) amount = await sdkPoolOut(hop.pool, hop.tokenIn, amount)
  return amount
}

/** A path priced by the chain itself at a block (QuoterV2 / Router02, hop by hop); 0 if refused. */
async function chainPathOut(
  network: Network,
  blockNumber: bigint,
  path: ReferencePath,
  amountIn: bigint,
): Promise<bigint> {
  const deployed = inject('deployments')[network]
  const client = publicClient(network)
  let amount = amountIn
  for (const hop of path) {
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

/** Paths of the reference split: the best few single routes at the full size. */
const SPLIT_CANDIDATES = 4

/**
 * The best two-route split of the reference, apart from the service's search: the best
 * SPLIT_CANDIDATES paths by the SDKs at the full size, every pair sharing no pool, every division
 * in 5 % steps, priced by the SDKs; the winner priced again by the chain at the block (each leg
 * alone: they share no pool). Undefined when no two paths share no pool.
 */
async function referenceBestSplit(
  network: Network,
  blockNumber: bigint,
  ranked: readonly { path: ReferencePath; out: bigint }[],
  amountIn: bigint,
): Promise<bigint | undefined> {
  const top = ranked.slice(0, SPLIT_CANDIDATES).map(({ path }) => path)
  const priced = new Map<string, bigint>()
  const outAt = async (index: number, parts: number) => {
    const key = `${index}:${parts}`
    let out = priced.get(key)
    if (out === undefined) {
      out = await sdkPathOut(top[index] ?? [], (amountIn * BigInt(parts)) / 20n)
      priced.set(key, out)
    }
    return out
  }
  let best: { a: number; b: number; parts: number; out: bigint } | undefined
  for (let a = 0; a < top.length; a += 1) {
    for (let b = a + 1; b < top.length; b += 1) {
      const poolsOf = (index: number) => new Set(top[index]?.map((hop) => hop.pool.address))
      const shared = [...poolsOf(a)].some((pool) => poolsOf(b).has(pool))
      if (shared) continue
      for (let parts = 1; parts < 20; parts += 1) {
        const out = (await outAt(a, parts)) + (await outAt(b, 20 - parts))
        if (!best || out > best.out) best = { a, b, parts, out }
      }
    }
  }
  if (!best) return undefined
  const legA = (amountIn * BigInt(best.parts)) / 20n
  return (
    (await chainPathOut(network, blockNumber, top[best.a] ?? [], legA)) +
    (await chainPathOut(network, blockNumber, top[best.b] ?? [], amountIn - legA))
  )
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
      splitsCompared: 0,
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
          const [ours, { rpc }] = await bestRoute(parameters)
            .then((route) => [route, counter.take()] as const)
            .finally(() => counter.stop())
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
          // Where a split of the reference beats its best single route (the largest size), the
          // service's split reaches it too; both ranked by output alone, at the same block.
          if (usd === USD_SIZES[USD_SIZES.length - 1]) {
            const byOutput = await bestRoute({ ...parameters, ignoreGas: true })
            const pools = await referencePools(byOutput.blockNumber)
            const ranked = await rankedPaths(pools, from.address, to.address, amountIn)
            const best = ranked[0]
            const single = best
              ? await chainPathOut(network, byOutput.blockNumber, best.path, amountIn)
              : 0n
            const split = await referenceBestSplit(network, byOutput.blockNumber, ranked, amountIn)
            if (split !== undefined && split > single) {
              tally.splitsCompared += 1
              if (byOutput.amountOut + 1n < split) {
                tally.failures.push(
                  `${from.address}->${to.address} ${usd}$: ours ${byOutput.amountOut} < reference split ${split}`,
                )
              }
            }
          }
          // Today's V2-only quote (before issue 26): the V2 router along the base-token paths.
          const v2 = await bestAmountOut(parameters).catch(() => undefined)
          if (v2 && v2.amountOut > 0n) {
            tally.v2Only.push(Number(((ours.amountOut - v2.amountOut) * 10_000n) / v2.amountOut))
          }
        }
      }
    }
    const sorted = [...tally.v2Only].sort((a, b) => a - b)
    console.log(
      `${network}: equal ${tally.equal}, better ${tally.better}, less output but more net of gas ${tally.gasChoice}, worse ${tally.worse}; ` +
        `reference splits better than its single route ${tally.splitsCompared} (all reached); ` +
        `median improvement over V2-only ${sorted[Math.floor(sorted.length / 2)]} bps (${sorted.length} quotes with a V2 route); ` +
        `round trips per warm quote max ${Math.max(...tally.roundTrips)}, calls max ${Math.max(...tally.calls)}`,
    )
    expect(tally.failures).toEqual([])
    // The comparison ran: the devnet has pairs a split serves better (issue 26's layout).
    expect(tally.splitsCompared).toBeGreaterThan(0)
    expect(Math.max(...tally.roundTrips)).toBeLessThanOrEqual(2)
  }, 600_000) // 126 quotes, each against a brute force: minutes on a busy machine, not a bound
})
