import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { LINK, USDC } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: 'The tokens of the catalog, one page at a time, sorted by the field asked for.',
  errors: [],
  example: {
    query: { sort: 'symbol', direction: 'ASC', limit: 2, offset: 0 },
    result: { tokens: [LINK, USDC] },
  },
}
