import { type RouteDoc, TRADE_LOOKUP_ROUTE } from '../../lib/openapi/routeDoc'
import { tradeRecord } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "One of the signed-in wallet's trades by id; a pending trade is settled first when its receipt is known.",
  ...TRADE_LOOKUP_ROUTE,
  example: { params: { tradeId: tradeRecord.id }, result: tradeRecord },
}
