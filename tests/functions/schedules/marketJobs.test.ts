import '../../support/env'
import { randomUUID } from 'node:crypto'
import type { ScheduledEvent } from 'aws-lambda'
import { type Address, getAddress, parseAbi, zeroAddress } from 'viem'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { handler as samplePricesHandler } from '../../../functions/schedules/samplePrices'
import { handler as syncMarketsHandler } from '../../../functions/schedules/syncMarkets'
import { importCatalogEntries, parseCatalog } from '../../../lib/catalog/importCatalog'
import { listProjectMarkets } from '../../../lib/db/marketStats'
import { putNetwork } from '../../../lib/db/network'
import { createTable } from '../../../lib/local/localTable'
import { sampleCatalogEntries } from '../../../lib/local/seedLocalData'
import { NETWORK_NAMES, type NetworkName } from '../../../lib/networkNames'
import { deployment, devnet } from '../../support/devnetAccounts'
import { createProject } from '../../support/marketFixtures'

// The scheduled jobs over a catalog of this file's own table (the shared one holds whatever the
// other files add meanwhile): the demo catalog of both devnets and one project no pool can price.
// Which catalog tokens can be priced is read from the chain itself, not from the service: a token
// is priceable when a path of at most 3 pools holding liquidity (DECISIONS §9.3), through catalog
// tokens and the wrapped coin, joins it to the network's USD stablecoin.

const event = {
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
} as ScheduledEvent

const MAX_HOPS = 3
const v2FactoryAbi = parseAbi(['function getPair(address, address) view returns (address)'])
const v2PairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)'])
const v3FactoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)'])
const v3PoolAbi = parseAbi(['function liquidity() view returns (uint128)'])

/** Every pool of the network's V2 and V3 factories between two of `tokens` that holds liquidity. */
async function liquidPools(network: NetworkName, tokens: readonly Address[]) {
  const client = devnet(network)
  const { factory, v3 } = deployment(network)
  const pairs = tokens.flatMap((a, index) => tokens.slice(index + 1).map((b) => [a, b] as const))
  const found = await Promise.all(
    pairs.map(async ([a, b]) => {
      const v2 = await client.readContract({
        address: factory,
        abi: v2FactoryAbi,
        functionName: 'getPair',
        args: [a, b],
      })
      const v2Liquid =
        v2 !== zeroAddress &&
        (
          await client.readContract({ address: v2, abi: v2PairAbi, functionName: 'getReserves' })
        ).every((reserve, index) => index === 2 || reserve > 0n)
      const v3Liquid = await Promise.all(
        v3.feeTiers.map(async (fee) => {
          const pool = await client.readContract({
            address: v3.factory,
            abi: v3FactoryAbi,
            functionName: 'getPool',
            args: [a, b, fee],
          })
          if (pool === zeroAddress) return false
          const liquidity = await client.readContract({
            address: pool,
            abi: v3PoolAbi,
            functionName: 'liquidity',
          })
          return liquidity > 0n
        }),
      )
      return v2Liquid || v3Liquid.some(Boolean) ? [[a, b] as const] : []
    }),
  )
  return found.flat()
}

/** The tokens a path of at most MAX_HOPS liquid pools joins to the USD stablecoin. */
async function priceableTokens(network: NetworkName, catalog: readonly Address[]) {
  const { usdStablecoin, wrappedNative } = deployment(network)
  const nodes = [...new Set([...catalog, wrappedNative, usdStablecoin].map((a) => getAddress(a)))]
  const edges = await liquidPools(network, nodes)
  let reached = new Set([getAddress(usdStablecoin)])
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const next = new Set(reached)
    for (const [a, b] of edges) {
      if (reached.has(a)) next.add(b)
      if (reached.has(b)) next.add(a)
    }
    reached = next
  }
  return reached
}

describe('the scheduled market jobs', () => {
  const expected = { priced: [] as string[], unpriced: [] as string[] }

  beforeAll(async () => {
    const table = `market-jobs-${randomUUID()}`
    await createTable(String(process.env.DYNAMODB_ENDPOINT), table)
    // Before any handler reads its configuration: the table is read once, on first use.
    process.env.TABLE_NAME = table
    await Promise.all(
      NETWORK_NAMES.map((network) => putNetwork(network, deployment(network).chainId)),
    )
    const catalog = parseCatalog(
      JSON.stringify({ projects: sampleCatalogEntries(Object.values(inject('deployments'))) }),
    )
    await importCatalogEntries(catalog, { backfill: false })
    const unpriceable = await createProject({ symbol: 'NOPOOL' })

    for (const network of NETWORK_NAMES) {
      const listed = catalog.filter((entry) => entry.network === network)
      const priceable = await priceableTokens(
        network,
        listed.map((entry) => entry.address as Address),
      )
      for (const entry of listed) {
        const name = `${network}:${entry.symbol}`
        ;(priceable.has(getAddress(entry.address)) ? expected.priced : expected.unpriced).push(name)
      }
    }
    expected.unpriced.push(`${unpriceable.network}:${unpriceable.symbol}`)
  }, 120_000)

  it('samples the whole catalog: every token a pool path prices, and counts the others without failing', async () => {
    const result = await samplePricesHandler(event)

    // Every demo token can be priced; the one project without a pool cannot.
    expect(expected.unpriced).toEqual(['ethereum:NOPOOL'])
    expect(result).toEqual({ sampled: expected.priced.length, failed: expected.unpriced.length })
    const priced = (await listProjectMarkets())
      .filter(({ market }) => market.priceE18 !== undefined && market.priceE18 > 0n)
      .map(({ project }) => `${project.network}:${project.symbol}`)
    expect(priced.sort()).toEqual(expected.priced.sort())
  })

  it('syncs every project of the catalog and ranks each priced one', async () => {
    const result = await syncMarketsHandler(event)

    const projects = await listProjectMarkets()
    // The project without a token contract has no supply to read: reported, still written.
    expect(result).toEqual({ synced: projects.length, failed: 1 })
    expect(projects.length).toBe(expected.priced.length + expected.unpriced.length)
    const ranks = projects
      .filter(({ market }) => market.marketRank > 0)
      .map(({ market }) => market.marketRank)
    expect(ranks.sort((a, b) => a - b)).toEqual(expected.priced.map((_, index) => index + 1))
  })
})
