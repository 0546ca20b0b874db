import { defineHandler } from '../../lib/http/defineHandler'
import { readPriceHistory } from '../../lib/markets/readPriceHistory'
import { usdToNumber } from '../../lib/markets/usdAmount'
import { formatTimestamp } from '../../lib/formatTimestamp'
import { type MonthlyHistoryResult, monthlyHistoryResultSchema } from '../../schemas/priceHistory'
import { type ProjectIdParams, projectIdParamsSchema } from '../../schemas/project'

/** The last 30 days, one point per day: one DynamoDB Query. */
export async function getMonthlyPriceHistory(
  { projectId }: ProjectIdParams,
  now = new Date(),
): Promise<MonthlyHistoryResult> {
  const points = await readPriceHistory(projectId, 'day', now)
  return {
    history: points.map((point) => ({
      avgPrice: usdToNumber(point.averageE18),
      day: formatTimestamp(point.start),
    })),
  }
}

export const handler = defineHandler({
  auth: 'none',
  params: projectIdParamsSchema,
  result: monthlyHistoryResultSchema,
  run: ({ params }) => getMonthlyPriceHistory(params),
})
