import type { RouteDoc } from '../../lib/openapi/routeDoc'

export const doc: RouteDoc = {
  description: 'Ends the wallet session of the presented access token.',
  errors: [],
  example: { result: {} },
}
