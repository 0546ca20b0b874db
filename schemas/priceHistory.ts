import * as z from './zod'

// Each point is stamped with its bucket's start, in the interface's timestamp format.

export const dailyHistoryResultSchema = z.object({
  history: z.array(z.object({ avgPrice: z.number(), hour: z.string() })),
})
export const monthlyHistoryResultSchema = z.object({
  history: z.array(z.object({ avgPrice: z.number(), day: z.string() })),
})
export const yearlyHistoryResultSchema = z.object({
  history: z.array(z.object({ avgPrice: z.number(), month: z.string() })),
})

export type DailyHistoryResult = z.infer<typeof dailyHistoryResultSchema>
export type MonthlyHistoryResult = z.infer<typeof monthlyHistoryResultSchema>
export type YearlyHistoryResult = z.infer<typeof yearlyHistoryResultSchema>
