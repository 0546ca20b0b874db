import { defineHandler } from '../../lib/http/defineHandler'
import { readPriceHistory } from '../../lib/markets/readPriceHistory'
import { usdToNumber } from '../../lib/markets/usdAmount'
import { formatTimestamp } from '../../lib/formatTimestamp'
import { type DailyHistoryResult, dailyHistoryResultSchema } from '../../schemas/priceHistory'
import { type ProjectIdParams, projectIdParamsSchema } from '../../schemas/project'

/** The last 24 hours, one point per hour: one DynamoDB Query. */
export async function getDailyPriceHistory(
  { projectId }: ProjectIdParams,
  now = new Date(),
): Promise<DailyHistoryResult> {
  const points = await readPriceHistory(projectId, 'hour', now)
  return {
    history: points.map((point) => ({
      avgPrice: usdToNumber(point.averageE18),
      hour: formatTimestamp(point.start),
    })),
  }
}

export const handler = defineHandler({
  auth: 'none',
  params: projectIdParamsSchema,
  result: dailyHistoryResultSchema,
  run: ({ params }) => getDailyPriceHistory(params),
})
