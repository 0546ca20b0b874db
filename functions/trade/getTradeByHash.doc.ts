import { type RouteDoc, TRADE_LOOKUP_ROUTE } from '../../lib/openapi/routeDoc'
import { SWAP_HASH, tradeRecord } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "One of the signed-in wallet's trades by transaction hash; a pending trade is settled first when its receipt is known.",
  ...TRADE_LOOKUP_ROUTE,
  example: { params: { hash: SWAP_HASH }, result: tradeRecord },
}
