import type { RouteDoc } from '../../lib/openapi/routeDoc'

export const doc: RouteDoc = {
  description: 'Ends the account session of the presented access token.',
  errors: [],
  example: { result: {} },
}
