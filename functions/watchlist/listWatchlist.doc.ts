import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { LINK } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: 'The projects the signed-in wallet watches, oldest watch first, with their prices.',
  errors: [],
  example: {
    result: {
      watchlist: [
        {
          id: LINK.id,
          symbol: LINK.symbol,
          name: LINK.name,
          price: 14.02,
          price_change_daily: -1.8,
          price_change_daily_positive: false,
        },
      ],
    },
  },
}
