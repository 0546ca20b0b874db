import {
  addressString,
  exactAmountString,
  linkString,
  timestampString,
  uuidString,
} from './formats'
import { MAX_LABELS } from './limits'
import { catalogFields, socialLinksShape } from './catalog'
import { networkNameSchema } from './networks'
import * as z from './zod'

export const projectIdParamsSchema = z.strictObject({ projectId: uuidString })
export type ProjectIdParams = z.infer<typeof projectIdParamsSchema>

// The catalog's links, or '' where it gives none.
const link = z.union([z.literal(''), linkString])

export const socialSchema = z.object({
  id: z.union([z.literal(''), uuidString]),
  ...socialLinksShape(link),
})

/** The interface's Project; market metrics not known yet are 0. Text is the catalog's (schemas/catalog.ts). */
export const projectSchema = z.object({
  id: uuidString,
  name: catalogFields.name,
  address: addressString,
  symbol: catalogFields.symbol,
  industry: catalogFields.industry,
  decimals: catalogFields.decimals,
  network: networkNameSchema,
  description: catalogFields.description,
  contract_inception: timestampString,
  contract_age: z.number(),
  market_rank: z.number(),
  price: z.number(),
  market_cap: z.number(),
  fully_diluted_market_cap: z.number(),
  total_supply: z.number(),
  total_supply_exact: exactAmountString,
  circulating_supply: z.number(),
  circulating_supply_exact: exactAmountString,
  volume_24h: z.number(),
  market_pairs: z.number(),
  price_change_24h: z.number(),
  price_change_7d: z.number(),
  price_change_30d: z.number(),
  price_change_60d: z.number(),
  price_change_90d: z.number(),
  createdAt: timestampString,
  watchLists: z.number(),
  social: socialSchema,
  tags: z
    .array(z.object({ id: uuidString, tag: catalogFields.label }))
    .check(z.maxLength(MAX_LABELS)),
  categories: z
    .array(z.object({ id: uuidString, category: catalogFields.label }))
    .check(z.maxLength(MAX_LABELS)),
})

export const projectResultSchema = z.object({ project: projectSchema })
export type ProjectResult = z.infer<typeof projectResultSchema>
