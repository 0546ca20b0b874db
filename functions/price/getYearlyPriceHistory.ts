import { defineHandler } from '../../lib/http/defineHandler'
import { readPriceHistory } from '../../lib/markets/readPriceHistory'
import { usdToNumber } from '../../lib/markets/usdAmount'
import { formatTimestamp } from '../../lib/formatTimestamp'
import { type YearlyHistoryResult, yearlyHistoryResultSchema } from '../../schemas/priceHistory'
import { type ProjectIdParams, projectIdParamsSchema } from '../../schemas/project'

/** The last 12 months, one point per month: one DynamoDB Query. */
export async function getYearlyPriceHistory(
  { projectId }: ProjectIdParams,
  now = new Date(),
): Promise<YearlyHistoryResult> {
  const points = await readPriceHistory(projectId, 'month', now)
  return {
    history: points.map((point) => ({
      avgPrice: usdToNumber(point.averageE18),
      month: formatTimestamp(point.start),
    })),
  }
}

export const handler = defineHandler({
  auth: 'none',
  params: projectIdParamsSchema,
  result: yearlyHistoryResultSchema,
  run: ({ params }) => getYearlyPriceHistory(params),
})
