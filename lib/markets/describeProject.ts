import { formatUnits } from 'viem'
import type { ProjectMarket } from '../db/marketStats'
import { SOCIAL_LINKS } from '../constants'
import { formatTimestamp } from '../formatTimestamp'
import { marketCaps } from './marketCaps'
import { usdToNumber, valueInUsd } from './usdAmount'

const DAY_MS = 86_400_000

/**
 * A project as the interface shows it. Market cap, FDV and 24 h volume are valued here at the
 * latest sampled price, so they always agree with `price`; a metric not known yet is 0 (the
 * inception of an unknown contract is the epoch, with age 0).
 */
export function describeProject({ project, market }: ProjectMarket, now = new Date()) {
  const price = market.priceE18 ?? 0n
  const caps = marketCaps(project, market)
  const exactTokens = (amount: bigint) => formatUnits(amount, project.decimals)
  const totalSupply = exactTokens(market.totalSupply ?? 0n)
  const circulatingSupply = exactTokens(caps.circulatingSupply)
  const inception = market.contractInception
  return {
    id: project.id,
    name: project.name,
    address: project.address,
    symbol: project.symbol,
    industry: project.industry,
    decimals: project.decimals,
    network: project.network,
    description: project.description,
    contract_inception: formatTimestamp(inception ?? new Date(0)),
    contract_age: inception
      ? Math.max(0, Math.floor((now.getTime() - inception.getTime()) / DAY_MS))
      : 0,
    market_rank: market.marketRank,
    price: usdToNumber(price),
    market_cap: usdToNumber(caps.marketCapE18),
    fully_diluted_market_cap: usdToNumber(caps.fullyDilutedE18),
    total_supply: Number(totalSupply),
    total_supply_exact: totalSupply,
    circulating_supply: Number(circulatingSupply),
    circulating_supply_exact: circulatingSupply,
    volume_24h: usdToNumber(valueInUsd(market.volume24h, project.decimals, price)),
    market_pairs: market.marketPairs,
    price_change_24h: market.priceChanges['24h'],
    price_change_7d: market.priceChanges['7d'],
    price_change_30d: market.priceChanges['30d'],
    price_change_60d: market.priceChanges['60d'],
    price_change_90d: market.priceChanges['90d'],
    createdAt: formatTimestamp(new Date(project.createdAt)),
    watchLists: market.watchLists,
    social: {
      id: project.social.id ?? '',
      ...(Object.fromEntries(
        SOCIAL_LINKS.map((name) => [name, project.social[name] ?? '']),
      ) as Record<(typeof SOCIAL_LINKS)[number], string>),
    },
    tags: project.tags,
    categories: project.categories,
  }
}
