import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SessionGate } from '../../lib/http/sessionGate'
import type { Principal } from '../../lib/http/types'
import { listWatchlist as readWatchlist } from '../../lib/markets/listWatchlist'
import { usdToNumber } from '../../lib/markets/usdAmount'
import { type WatchlistResult, watchlistResultSchema } from '../../schemas/watchlist'

export async function listWatchlist(
  principal: Principal,
  session: SessionGate,
): Promise<WatchlistResult> {
  const entries = await readWatchlist(principal.subject, session)
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
  // The session is read with the watched projects: two DynamoDB calls in all.
  sessionRead: 'route',
  result: watchlistResultSchema,
  run: ({ principal, session }) => listWatchlist(principal, session),
})
