import '../../support/env'
import { erc20Abi, formatUnits, getAddress, isAddressEqual, parseAbi } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadChainConfig } from '../../../lib/config'
import { getProjectMarket } from '../../../lib/db/marketStats'
import type { Project } from '../../../lib/db/project'
import { describeProject } from '../../../lib/markets/describeProject'
import { readPriceHistory } from '../../../lib/markets/readPriceHistory'
import { samplePrices } from '../../../lib/markets/samplePrices'
import { syncMarkets } from '../../../lib/markets/syncMarkets'
import { usdToNumber, valueInUsd } from '../../../lib/markets/usdAmount'
import { formatTimestamp } from '../../../lib/formatTimestamp'
import { buyWithNative, deployListedToken, type ListedToken } from '../../support/listedToken'
import { createProject } from '../../support/marketFixtures'
import { readClient } from '../../support/readClient'

const factoryAbi = parseAbi([
  'function allPairsLength() view returns (uint256)',
  'function allPairs(uint256) view returns (address)',
])
const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

/** The factory's pairs holding `token`, by walking every pair it ever created. */
async function pairsOnChain(token: ListedToken): Promise<number> {
  const client = readClient(token.network)
  const { factory } = loadChainConfig(token.network)
  const length = await client.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: 'allPairsLength',
  })
  const holding = await Promise.all(
    Array.from({ length: Number(length) }, async (_, index) => {
      const pair = await client.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: 'allPairs',
        args: [BigInt(index)],
      })
      const [token0, token1] = await Promise.all([
        client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
        client.readContract({ address: pair, abi: pairAbi, functionName: 'token1' }),
      ])
      return isAddressEqual(token0, token.address) || isAddressEqual(token1, token.address)
    }),
  )
  return holding.filter(Boolean).length
}

/** What GET /v1/project/{id} answers for the project. */
async function projectDetails(projectId: string) {
  const projectMarket = await getProjectMarket(projectId)
  if (!projectMarket) throw new Error(`no project ${projectId}`)
  return describeProject(projectMarket)
}

async function priceOf(projectId: string) {
  const market = (await getProjectMarket(projectId))?.market
  if (!market?.priceE18) throw new Error('the project has no price')
  return { priceE18: market.priceE18, volume24h: market.volume24h }
}

describe('market data from the devnet', () => {
  // A token of this file's own, pooled against the wrapped native coin and the USD coin at about
  // $0.30, so the swaps below move no price another test reads.
  let token: ListedToken
  let project: Project
  beforeAll(async () => {
    token = await deployListedToken({
      nativePool: { tokens: 100_000n, ether: '10' },
      usdPool: { tokens: 100_000n, usd: 30_000n },
    })
    project = await createProject({
      address: getAddress(token.address),
      decimals: token.decimals,
      circulatingSupply: '5000000',
    })
  })

  it('counts the pairs and reads the total supply and deployment time as the chain says', async () => {
    await syncMarkets()

    const details = await projectDetails(project.id)

    const totalSupply = await readClient('ethereum').readContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'totalSupply',
    })
    expect(details.market_pairs).toBe(await pairsOnChain(token))
    expect(details.market_pairs).toBe(2)
    expect(details.total_supply).toBe(Number(formatUnits(totalSupply, token.decimals)))
    expect(details.total_supply_exact).toBe(formatUnits(totalSupply, token.decimals))
    expect(details.contract_inception).toBe(formatTimestamp(token.deployedAt))
    expect(details.contract_age).toBe(0)
  })

  it('reflects a swap in the next sample, and adds its value to the 24 h volume', async () => {
    // Prepare: a first sample and sync before the swap.
    const first = await samplePrices({ projects: [project] })
    await syncMarkets()
    const before = await priceOf(project.id)

    // Act: 2 of the pool's 10 native coins buy the token, then the jobs run again.
    const { bought } = await buyWithNative(token, '2')
    const second = await samplePrices({ projects: [project] })
    await syncMarkets()

    // Assess
    const after = await priceOf(project.id)
    const sampledBefore = first.sampled[0]?.priceE18 ?? 0n
    const sampledAfter = second.sampled[0]?.priceE18 ?? 0n
    expect(first.failed).toEqual([])
    expect(usdToNumber(sampledBefore)).toBeCloseTo(0.3, 2)
    // The native pool now holds 12 coins for fewer tokens: about 1.44 times the price.
    expect(Number(sampledAfter) / Number(sampledBefore)).toBeGreaterThan(1.3)
    expect(after.priceE18).toBe(sampledAfter)
    expect(after.volume24h - before.volume24h).toBe(bought)

    const details = await projectDetails(project.id)
    expect(details.price).toBe(usdToNumber(sampledAfter))
    expect(details.volume_24h).toBe(
      usdToNumber(valueInUsd(after.volume24h, token.decimals, after.priceE18)),
    )
    expect(details.volume_24h).toBeGreaterThanOrEqual(
      usdToNumber(valueInUsd(bought, token.decimals, after.priceE18)),
    )
    expect(details.market_cap).toBe(usdToNumber(after.priceE18 * 5_000_000n))
    expect(details.fully_diluted_market_cap).toBe(usdToNumber(after.priceE18 * 10_000_000n))
    expect(details.market_rank).toBeGreaterThanOrEqual(1)

    // Its pools are younger than this hour, so the history has no average of it yet: a bucket
    // is the pools' average over the whole bucket (DECISIONS §8.3).
    expect(await readPriceHistory(project.id, 'hour')).toEqual([])
    expect(second.historyFailed).toEqual([])
  })

  it('goes on pricing the others when one project fails', async () => {
    const unpriceable = await createProject()

    const run = await samplePrices({ projects: [unpriceable, project] })

    expect(run.sampled.map(({ projectId }) => projectId)).toEqual([project.id])
    expect(run.failed).toEqual([
      { projectId: unpriceable.id, reason: 'no liquidity path between these tokens on ethereum' },
    ])
    console.log(`sampler: ${run.durationMs} ms for 2 projects`)
  })
})
