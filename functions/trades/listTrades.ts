import { listTrades as listWalletTrades } from '../../lib/db/trade'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { toTradeListItem } from '../../lib/trades/toTradeRecord'
import {
  type ListTradesQuery,
  listTradesQuerySchema,
  listTradesResultSchema,
} from '../../schemas/trade'

// `sort` has one value, createdAt, which is the order of the trades' keys.
export async function listTrades(
  { limit, offset, direction }: ListTradesQuery,
  principal: Principal,
) {
  const { count, trades } = await listWalletTrades({
    wallet: principal.subject,
    limit,
    offset,
    direction,
  })
  return { count, trades: trades.map(toTradeListItem) }
}

export const handler = defineHandler({
  auth: walletGuard,
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  query: listTradesQuerySchema,
  result: listTradesResultSchema,
  run: ({ query, principal }) => listTrades(query, principal),
})
