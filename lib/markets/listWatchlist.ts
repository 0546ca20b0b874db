import { getProjectMarkets } from '../db/marketStats'
import { listWatchedProjectIds } from '../db/watchlist'

export interface WatchlistEntry {
  id: string
  symbol: string
  name: string
  priceE18: bigint
  /** Percent over 24 h, from the service's own buckets; 0 while unknown. */
  priceChangeDaily: number
}

/**
 * The projects a wallet watches, oldest watch first: one Query, then one BatchGetItem per 100
 * keys.
 */
export async function listWatchlist(wallet: string): Promise<WatchlistEntry[]> {
  const projectIds = await listWatchedProjectIds(wallet)
  const projectMarkets = await getProjectMarkets(projectIds)
  return projectMarkets.map(({ project, market }) => ({
    id: project.id,
    symbol: project.symbol,
    name: project.name,
    priceE18: market.priceE18 ?? 0n,
    priceChangeDaily: market.priceChanges['24h'],
  }))
}
