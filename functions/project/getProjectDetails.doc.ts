import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { PROJECT_PARAMS, project } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: 'A project of the catalog with its market metrics and links.',
  errors: [404],
  example: { params: PROJECT_PARAMS, result: { project } },
}
