import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { rpcBudget } from '../../lib/http/rpcBudget'
import type { Principal } from '../../lib/auth/principal'
import { TRADE_LOOKUP_RPC_CAP } from '../../lib/rpcCallCaps'
import { lookupTrade } from '../../lib/trades/lookupTrade'
import { toTradeRecord } from '../../lib/trades/toTradeRecord'
import { type TradeHashParams, tradeHashParamsSchema, tradeRecordSchema } from '../../schemas/trade'

export async function getTradeByHash({ hash }: TradeHashParams, principal: Principal) {
  return toTradeRecord(await lookupTrade(principal.subject, { hash }))
}

export const handler = defineHandler({
  auth: walletGuard,
  // Charged only if it calls: a pending trade's receipt.
  rpcBudget: rpcBudget(TRADE_LOOKUP_RPC_CAP, { charge: 'atFirstCall' }),
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  params: tradeHashParamsSchema,
  result: tradeRecordSchema,
  run: ({ params, principal }) => getTradeByHash(params, principal),
})
