import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { lookupTrade } from '../../lib/trades/lookupTrade'
import { toTradeRecord } from '../../lib/trades/toTradeRecord'
import { type TradeHashParams, tradeHashParamsSchema, tradeRecordSchema } from '../../schemas/trade'

export async function getTradeByHash({ hash }: TradeHashParams, principal: Principal) {
  return toTradeRecord(await lookupTrade(principal.subject, { hash }))
}

export const handler = defineHandler({
  auth: walletGuard,
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  params: tradeHashParamsSchema,
  result: tradeRecordSchema,
  run: ({ params, principal }) => getTradeByHash(params, principal),
})
