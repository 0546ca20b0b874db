import { uuidString } from './formats'
import { MAX_NAME_CHARS, MAX_SYMBOL_CHARS } from './limits'
import * as z from './zod'

export const watchlistEntrySchema = z.object({
  id: uuidString,
  symbol: z.string().check(z.maxLength(MAX_SYMBOL_CHARS)),
  name: z.string().check(z.maxLength(MAX_NAME_CHARS)),
  price: z.number(),
  price_change_daily: z.number(),
  price_change_daily_positive: z.boolean(),
})

// As many entries as the catalog has projects: a wallet may watch each once.
export const watchlistResultSchema = z.object({ watchlist: z.array(watchlistEntrySchema) })
export type WatchlistResult = z.infer<typeof watchlistResultSchema>
