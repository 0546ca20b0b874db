import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { formatTimestamp } from '../../lib/formatTimestamp'
import { PROJECT_PARAMS } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "Time-weighted average USD prices of a project over the last 12 months, one point per month (the current one up to now), from its pools' price accumulators.",
  errors: [404],
  example: {
    params: PROJECT_PARAMS,
    result: {
      history: [
        { avgPrice: 12.9, month: formatTimestamp(new Date('2026-09-01T00:00:00.000Z')) },
        { avgPrice: 13.45, month: formatTimestamp(new Date('2026-10-01T00:00:00.000Z')) },
        { avgPrice: 14.02, month: formatTimestamp(new Date('2026-11-01T00:00:00.000Z')) },
      ],
    },
  },
}
