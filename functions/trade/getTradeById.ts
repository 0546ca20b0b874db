import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { rpcBudget } from '../../lib/http/rpcBudget'
import type { Principal } from '../../lib/auth/principal'
import { TRADE_LOOKUP_RPC_CAP } from '../../lib/rpcCallCaps'
import { lookupTrade } from '../../lib/trades/lookupTrade'
import { toTradeRecord } from '../../lib/trades/toTradeRecord'
import { type TradeIdParams, tradeIdParamsSchema, tradeRecordSchema } from '../../schemas/trade'

export async function getTradeById({ tradeId }: TradeIdParams, principal: Principal) {
  return toTradeRecord(await lookupTrade(principal.subject, { id: tradeId }))
}

export const handler = defineHandler({
  auth: walletGuard,
  // Charged only if it calls: a pending trade's receipt.
  rpcBudget: rpcBudget(TRADE_LOOKUP_RPC_CAP, { charge: 'atFirstCall' }),
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  params: tradeIdParamsSchema,
  result: tradeRecordSchema,
  run: ({ params, principal }) => getTradeById(params, principal),
})
