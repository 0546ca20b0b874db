import { timestampString } from './formats'
import * as z from './zod'

// Each point is stamped with its bucket's start, in the interface's timestamp format; `avgPrice` is
// the time-weighted average over the bucket (DECISIONS §8.3). A window holds 24, 30 or 12 buckets,
// but it is read by time, not count (a bucket a pool's history does not reach is left out), so no
// item count is promised.

export const dailyHistoryResultSchema = z.object({
  history: z.array(z.object({ avgPrice: z.number(), hour: timestampString })),
})
export const monthlyHistoryResultSchema = z.object({
  history: z.array(z.object({ avgPrice: z.number(), day: timestampString })),
})
export const yearlyHistoryResultSchema = z.object({
  history: z.array(z.object({ avgPrice: z.number(), month: timestampString })),
})

export type DailyHistoryResult = z.infer<typeof dailyHistoryResultSchema>
export type MonthlyHistoryResult = z.infer<typeof monthlyHistoryResultSchema>
export type YearlyHistoryResult = z.infer<typeof yearlyHistoryResultSchema>
