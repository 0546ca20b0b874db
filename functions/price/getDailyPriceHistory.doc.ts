import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { HOUR_MS, PROJECT_PARAMS, history } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "Time-weighted average USD prices of a project over the last 24 hours, one point per hour (the current one up to now), from its pools' price accumulators.",
  errors: [404],
  example: {
    params: PROJECT_PARAMS,
    result: history('hour', HOUR_MS, [14.31, 14.12, 14.02]),
  },
}
