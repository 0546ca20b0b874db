import * as z from 'zod'
import { networkNameSchema } from './networks'

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)

export const tradeTypeSchema = z.enum(['swap', 'transfer', 'approval', 'deposit'])
export const tradeStatusSchema = z.enum(['pending', 'successful', 'failed'])

export const listTradesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  sort: z.enum(['createdAt']).default('createdAt'),
  // Case-insensitive (DECISIONS §4, §5): `asc` is ASC.
  direction: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(['ASC', 'DESC']))
    .default('DESC'),
})
export type ListTradesQuery = z.infer<typeof listTradesQuerySchema>

export const tradeListItemSchema = z.object({
  id: z.uuid(),
  type: tradeTypeSchema,
  status: tradeStatusSchema,
  amount: z.number(),
})

export const listTradesResultSchema = z.object({
  count: z.number().int(),
  trades: z.array(tradeListItemSchema),
})
export type ListTradesResult = z.infer<typeof listTradesResultSchema>

export const tradeHashParamsSchema = z.strictObject({
  hash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash')
    .transform((value) => value.toLowerCase()),
})
export type TradeHashParams = z.infer<typeof tradeHashParamsSchema>

export const tradeIdParamsSchema = z.strictObject({
  tradeId: z.uuid().transform((value) => value.toLowerCase()),
})
export type TradeIdParams = z.infer<typeof tradeIdParamsSchema>

export const tradeRecordSchema = z.object({
  id: z.uuid(),
  hash: z.string().regex(/^0x[0-9a-f]{64}$/),
  type: tradeTypeSchema,
  network: networkNameSchema,
  status: tradeStatusSchema,
  amount: z.number(),
  gasUsed: z.number().int(),
  blockNumber: z.number().int(),
  isNativeTransfer: z.boolean(),
  from: address,
  to: address,
  createdAt: z.string(),
})
export type TradeRecord = z.infer<typeof tradeRecordSchema>
