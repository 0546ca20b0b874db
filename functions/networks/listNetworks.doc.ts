import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { EXAMPLE_NETWORKS } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: 'The networks the service serves, with the ids that attach them to a wallet.',
  errors: [],
  example: { result: { networks: EXAMPLE_NETWORKS } },
}
