import * as z from './zod'

export const watchlistEntrySchema = z.object({
  id: z.uuid(),
  symbol: z.string(),
  name: z.string(),
  price: z.number(),
  price_change_daily: z.number(),
  price_change_daily_positive: z.boolean(),
})

export const watchlistResultSchema = z.object({ watchlist: z.array(watchlistEntrySchema) })
export type WatchlistResult = z.infer<typeof watchlistResultSchema>
