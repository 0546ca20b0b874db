import {
  addressString,
  documented,
  exactAmountString,
  timestampString,
  txHashString,
  uuidString,
} from './formats'
import { MAX_PAGE_SIZE } from './limits'
import { networkNameSchema } from './networks'
import { directionSchema, integerString } from './query'
import * as z from './zod'

export const tradeTypeSchema = z.enum(['swap', 'transfer', 'approval', 'deposit'])
export const tradeStatusSchema = z.enum(['pending', 'successful', 'failed'])

export const listTradesQuerySchema = z.strictObject({
  limit: z._default(integerString(1, MAX_PAGE_SIZE), 10),
  offset: z._default(integerString(0, Number.MAX_SAFE_INTEGER), 0),
  sort: z._default(z.enum(['createdAt']), 'createdAt'),
  direction: directionSchema,
})
export type ListTradesQuery = z.infer<typeof listTradesQuerySchema>

// Present (true) only on a deposit of a token that had no path price when it was recorded
// (DECISIONS §10.4): listed rather than dropped, for the app to show apart.
const unpricedFlag = z.optional(z.literal(true))

export const tradeListItemSchema = z.object({
  id: uuidString,
  type: tradeTypeSchema,
  status: tradeStatusSchema,
  amount: z.number(),
  amountExact: exactAmountString,
  unpriced: unpricedFlag,
})

export const listTradesResultSchema = z.object({
  count: z.int().check(z.nonnegative()),
  trades: z.array(tradeListItemSchema).check(z.maxLength(MAX_PAGE_SIZE)),
})
export type ListTradesResult = z.infer<typeof listTradesResultSchema>

export const tradeHashParamsSchema = z.strictObject({
  hash: documented(
    z
      .string()
      .check(
        z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash'),
        z.toLowerCase(),
      ),
    { maxLength: 66 },
  ),
})
export type TradeHashParams = z.infer<typeof tradeHashParamsSchema>

export const tradeIdParamsSchema = z.strictObject({
  tradeId: uuidString.check(z.toLowerCase()),
})
export type TradeIdParams = z.infer<typeof tradeIdParamsSchema>

export const tradeRecordSchema = z.object({
  id: uuidString,
  hash: txHashString,
  type: tradeTypeSchema,
  network: networkNameSchema,
  status: tradeStatusSchema,
  amount: z.number(),
  amountExact: exactAmountString,
  gasUsed: z.int().check(z.nonnegative()),
  blockNumber: z.int().check(z.nonnegative()),
  isNativeTransfer: z.boolean(),
  from: addressString,
  to: addressString,
  createdAt: timestampString,
  unpriced: unpricedFlag,
})
export type TradeRecord = z.infer<typeof tradeRecordSchema>
