import { networkNameSchema } from './networks'
import { directionSchema, integerString } from './query'
import * as z from './zod'

const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))

export const tradeTypeSchema = z.enum(['swap', 'transfer', 'approval', 'deposit'])
export const tradeStatusSchema = z.enum(['pending', 'successful', 'failed'])

export const listTradesQuerySchema = z.strictObject({
  limit: z._default(integerString(1, 100), 10),
  offset: z._default(integerString(0, Number.MAX_SAFE_INTEGER), 0),
  sort: z._default(z.enum(['createdAt']), 'createdAt'),
  direction: directionSchema,
})
export type ListTradesQuery = z.infer<typeof listTradesQuerySchema>

export const tradeListItemSchema = z.object({
  id: z.uuid(),
  type: tradeTypeSchema,
  status: tradeStatusSchema,
  amount: z.number(),
})

export const listTradesResultSchema = z.object({
  count: z.int(),
  trades: z.array(tradeListItemSchema),
})
export type ListTradesResult = z.infer<typeof listTradesResultSchema>

export const tradeHashParamsSchema = z.strictObject({
  hash: z
    .string()
    .check(
      z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash'),
      z.toLowerCase(),
    ),
})
export type TradeHashParams = z.infer<typeof tradeHashParamsSchema>

export const tradeIdParamsSchema = z.strictObject({
  tradeId: z.uuid().check(z.toLowerCase()),
})
export type TradeIdParams = z.infer<typeof tradeIdParamsSchema>

export const tradeRecordSchema = z.object({
  id: z.uuid(),
  hash: z.string().check(z.regex(/^0x[0-9a-f]{64}$/)),
  type: tradeTypeSchema,
  network: networkNameSchema,
  status: tradeStatusSchema,
  amount: z.number(),
  gasUsed: z.int(),
  blockNumber: z.int(),
  isNativeTransfer: z.boolean(),
  from: address,
  to: address,
  createdAt: z.string(),
})
export type TradeRecord = z.infer<typeof tradeRecordSchema>
