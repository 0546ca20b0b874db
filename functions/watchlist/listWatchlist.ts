import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { listWatchlist as readWatchlist } from '../../lib/markets/listWatchlist'
import { usdToNumber } from '../../lib/markets/usdAmount'
import { type WatchlistResult, watchlistResultSchema } from '../../schemas/watchlist'

export async function listWatchlist(principal: Principal): Promise<WatchlistResult> {
  const entries = await readWatchlist(principal.subject)
  return {
    watchlist: entries.map((entry) => ({
      id: entry.id,
      symbol: entry.symbol,
      name: entry.name,
      price: usdToNumber(entry.priceE18),
      price_change_daily: entry.priceChangeDaily,
      price_change_daily_positive: entry.priceChangeDaily > 0,
    })),
  }
}

export const handler = defineHandler({
  auth: walletGuard,
  // A read: the session is read beside the watches' Query.
  sessionRead: 'beside',
  result: watchlistResultSchema,
  run: ({ principal }) => listWatchlist(principal),
})
