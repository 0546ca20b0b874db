import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { PROJECT_PARAMS } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: "Removes a project from the signed-in wallet's watchlist.",
  errors: [404],
  example: { params: PROJECT_PARAMS, result: {} },
}
