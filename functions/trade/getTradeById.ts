import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { lookupTrade } from '../../lib/trades/lookupTrade'
import { toTradeRecord } from '../../lib/trades/toTradeRecord'
import { type TradeIdParams, tradeIdParamsSchema, tradeRecordSchema } from '../../schemas/trade'

export async function getTradeById({ tradeId }: TradeIdParams, principal: Principal) {
  return toTradeRecord(await lookupTrade(principal.subject, { id: tradeId }))
}

export const handler = defineHandler({
  auth: walletGuard,
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  params: tradeIdParamsSchema,
  result: tradeRecordSchema,
  run: ({ params, principal }) => getTradeById(params, principal),
})
