import type { RouteDoc } from '../../lib/openapi/routeDoc'

export const doc: RouteDoc = {
  description:
    "The signed-in wallet's native balance, in whole coins, on each network attached to it.",
  errors: [],
  example: {
    result: {
      networksBalance: [
        { network: 'ethereum', balance: 1.25, balanceExact: '1.25' },
        { network: 'altchain', balance: 0.4, balanceExact: '0.400000000000000001' },
      ],
    },
  },
}
