import '../../support/env'
import { createPublicClient, formatUnits, http, isAddressEqual } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PricingPath } from '../../../lib/db/priceBoundary'
import { type AnvilNode, startAnvil } from '../../../lib/local/anvil'
import {
  defineDevnetChain,
  DEVNET_CHAIN_IDS,
  type DexDeployment,
  deployDex,
} from '../../../lib/local/deployDex'
import { findFreePort } from '../../../lib/local/findFreePort'
import { scaleBySqrt } from '../../../lib/local/historyPrices'
import { type HistoryTrader, setUpHistoryTrader } from '../../../lib/local/historyTrader'
import { createBoundaryReader } from '../../../lib/markets/boundaryReader'
import { pathAverageE18 } from '../../../lib/markets/timeWeightedPrice'
import { TwapReference } from '../../support/independentTwap'

// A pool pushed to twice its price for one 12-second block and back (DECISIONS §8.3), on a devnet
// of this file's own, where nobody else trades and the test sets each block's time: the hourly
// average moves by that block's share of the hour (12 s of 3,600, 1/300 of the move), where a
// 5-minute spot sample taken in that block would have moved it by 1/12 of the move.

const HOUR = 3600
const BLOCK_SECONDS = 12

let node: AnvilNode
let deployment: DexDeployment
let trader: HistoryTrader
let hour: number

const usd = (valueE18: bigint) => Number(formatUnits(valueE18, 18))

function linkUsdcPaths(): { v2: PricingPath; v3: PricingPath } {
  const link = deployment.tokens.find((token) => token.symbol === 'LINK')?.address
  const usdc = deployment.usdStablecoin
  if (!link) throw new Error('no LINK')
  const holds = (pool: { token0: string; token1: string }) =>
    [pool.token0, pool.token1].some((token) => isAddressEqual(token as `0x${string}`, link)) &&
    [pool.token0, pool.token1].some((token) => isAddressEqual(token as `0x${string}`, usdc))
  const pair = deployment.pairs.find(holds)
  const pool = deployment.v3.pools.find((candidate) => holds(candidate) && candidate.fee === 3000)
  if (!pair || !pool) throw new Error('no LINK/USDC pools')
  const path = (protocol: 'v2' | 'v3', address: `0x${string}`, token0: string): PricingPath => {
    const hop = {
      protocol,
      pool: address,
      tokenIn: link,
      tokenOut: usdc,
      zeroForOne: isAddressEqual(token0 as `0x${string}`, link),
    }
    return { id: `${protocol}:${address}`, hops: [hop], tokenDecimals: 18, usdDecimals: 6 }
  }
  return { v2: path('v2', pair.address, pair.token0), v3: path('v3', pool.address, pool.token0) }
}

beforeAll(async () => {
  const chainId = DEVNET_CHAIN_IDS.ethereum
  node = await startAnvil({ port: await findFreePort(), chainId })
  deployment = await deployDex({ rpcUrl: node.rpcUrl, chainId, network: 'ethereum' })
  trader = await setUpHistoryTrader(deployment)
  const client = createPublicClient({ transport: http(node.rpcUrl) })
  const { timestamp } = await client.getBlock()
  // The hour after the next, so the hour before it is quiet too (the baseline).
  hour = Math.ceil(Number(timestamp) / HOUR) * HOUR + HOUR
  const { v2, v3 } = linkUsdcPaths()
  const pools = [v2, v3].map((path) => {
    const pool = trader.pools.find((candidate) =>
      isAddressEqual(candidate.address, path.hops[0]?.pool ?? '0x'),
    )
    if (!pool) throw new Error('pool not traded')
    return pool
  })
  // Act: LINK at twice its price for one block in the middle of the hour, then back.
  await trader.moveAt(
    hour + HOUR / 2,
    pools.map((pool) => ({
      pool: pool.address,
      v3: pool.v3,
      // LINK's price doubles: token1 per token0 doubles when LINK is token0, else halves.
      targetSqrtPriceX96: scaleBySqrt(
        pool.sqrtPriceX96,
        isAddressEqual(pool.token0, v2.hops[0]?.tokenIn ?? '0x') ? 2 : 0.5,
      ),
    })),
  )
  await trader.moveAt(
    hour + HOUR / 2 + BLOCK_SECONDS,
    pools.map((pool) => ({
      pool: pool.address,
      v3: pool.v3,
      targetSqrtPriceX96: pool.sqrtPriceX96,
    })),
  )
  await trader.close()
}, 120_000)

afterAll(async () => {
  await node?.stop()
})

describe('a pool moved for one block and back', () => {
  it('moves the hourly average by at most that block’s share of the hour', async () => {
    const chain = defineDevnetChain({
      network: 'ethereum',
      chainId: node.chainId,
      rpcUrl: node.rpcUrl,
    })
    const client = createPublicClient({ chain, transport: http(node.rpcUrl, { batch: true }) })
    const reader = createBoundaryReader({
      network: 'ethereum',
      now: new Date((hour + HOUR + 60) * 1000),
      recent: client,
      archive: client,
    })
    const reference = new TwapReference(node.rpcUrl)
    const figures: string[] = []
    for (const [name, path] of Object.entries(linkUsdcPaths())) {
      const read = async (at: number) => {
        const result = await reader.readAt(path, new Date(at * 1000))
        if (result.status !== 'read') throw new Error(`${name} not read at ${at}`)
        return result.cumulatives
      }
      const [before, start, end] = await Promise.all([
        read(hour - HOUR),
        read(hour),
        read(hour + HOUR),
      ])
      const quietE18 = pathAverageE18(path, before, start, BigInt(HOUR))
      const movedE18 = pathAverageE18(path, start, end, BigInt(HOUR))
      // The price in the pushed block, as a spot sample taken then would have recorded it.
      const pushedE18 = pathAverageE18(
        path,
        await read(hour + HOUR / 2),
        await read(hour + HOUR / 2 + BLOCK_SECONDS),
        BigInt(BLOCK_SECONDS),
      )

      const blockShareE18 = ((pushedE18 - quietE18) * BigInt(BLOCK_SECONDS)) / BigInt(HOUR)
      const sampleShareE18 = (pushedE18 - quietE18) / 12n
      figures.push(
        `${name}: quiet hour $${usd(quietE18)}, pushed block $${usd(pushedE18)}, hour with it ` +
          `$${usd(movedE18)} (+${((usd(movedE18 - quietE18) / usd(quietE18)) * 100).toFixed(3)} %); ` +
          `its share 12/3600 is $${usd(blockShareE18)}; a 5-minute spot sample in that block ` +
          `would have moved the hour by $${usd(sampleShareE18)} (+${((usd(sampleShareE18) / usd(quietE18)) * 100).toFixed(2)} %)`,
      )

      // Assess: the service's averages are the chain's own, and the push moved the hour by no
      // more than its block's share (V2 exactly that share; V3's geometric mean less).
      expect(movedE18).toBe(await reference.averageE18(path, BigInt(hour), BigInt(hour + HOUR)))
      expect(quietE18).toBe(await reference.averageE18(path, BigInt(hour - HOUR), BigInt(hour)))
      expect(usd(pushedE18) / usd(quietE18)).toBeCloseTo(2, 3)
      expect(movedE18).toBeGreaterThan(quietE18)
      // One tick (1 bp) of rounding on V3's mean tick; a few wei of UQ112x112 truncation on V2.
      expect(movedE18 - quietE18).toBeLessThanOrEqual(blockShareE18 + quietE18 / 10_000n)
      if (name === 'v2') {
        expect(usd(movedE18 - quietE18) / usd(blockShareE18)).toBeCloseTo(1, 4)
      } else {
        // 2^(12/3600) - 1 of the price: the mean of the logs moves by 1/300 of log 2.
        expect(usd(movedE18) / usd(quietE18)).toBeCloseTo(2 ** (BLOCK_SECONDS / HOUR), 3)
      }
      expect(sampleShareE18).toBeGreaterThan(blockShareE18 * 20n)
    }
    console.log(figures.join('\n'))
  })
})
