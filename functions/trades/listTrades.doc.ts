import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { tradeRecord } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "The signed-in wallet's trades (swaps, transfers, approvals, deposits), one page at a time, with their total count.",
  errors: [],
  example: {
    query: { limit: 20, offset: 0, sort: 'createdAt', direction: 'DESC' },
    result: {
      count: 2,
      trades: [
        {
          id: tradeRecord.id,
          type: 'swap',
          status: 'successful',
          amount: 40,
          amountExact: '40',
        },
        {
          id: '019a8f2d-9e0b-7c4a-8d1e-2f3a4b5c6d7e',
          type: 'approval',
          status: 'successful',
          amount: 40,
          amountExact: '40',
        },
      ],
    },
  },
}
