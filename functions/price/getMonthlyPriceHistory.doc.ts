import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { DAY_MS, PROJECT_PARAMS, history } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "Time-weighted average USD prices of a project over the last 30 days, one point per day (the current one up to now), from its pools' price accumulators.",
  errors: [404],
  example: {
    params: PROJECT_PARAMS,
    result: history('day', DAY_MS, [13.2, 13.74, 14.02]),
  },
}
