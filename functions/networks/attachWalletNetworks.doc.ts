import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { EXAMPLE_NETWORKS } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Attaches networks to the signed-in wallet, so its balance there is reported. Repeats are harmless.',
  errors: [404],
  example: { body: { networkIds: EXAMPLE_NETWORKS.map(({ id }) => id) }, result: {} },
}
