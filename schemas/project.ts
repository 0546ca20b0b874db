import { networkNameSchema } from './networks'
import * as z from './zod'

export const projectIdParamsSchema = z.strictObject({ projectId: z.uuid() })
export type ProjectIdParams = z.infer<typeof projectIdParamsSchema>

const timestamp = z.string().check(z.regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} \+00:00$/))

export const socialSchema = z.object({
  id: z.string(),
  website: z.string(),
  explorer: z.string(),
  twitter: z.string(),
  facebook: z.string(),
  instagram: z.string(),
  telegram: z.string(),
  discord: z.string(),
  reddit: z.string(),
  youtube: z.string(),
  github: z.string(),
  medium: z.string(),
})

/** The interface's Project; market metrics not known yet are 0. */
export const projectSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string(),
  symbol: z.string(),
  industry: z.string(),
  decimals: z.int(),
  network: networkNameSchema,
  description: z.string(),
  contract_inception: timestamp,
  contract_age: z.number(),
  market_rank: z.number(),
  price: z.number(),
  market_cap: z.number(),
  fully_diluted_market_cap: z.number(),
  total_supply: z.number(),
  circulating_supply: z.number(),
  volume_24h: z.number(),
  market_pairs: z.number(),
  price_change_24h: z.number(),
  price_change_7d: z.number(),
  price_change_30d: z.number(),
  price_change_60d: z.number(),
  price_change_90d: z.number(),
  createdAt: timestamp,
  watchLists: z.number(),
  social: socialSchema,
  tags: z.array(z.object({ id: z.uuid(), tag: z.string() })),
  categories: z.array(z.object({ id: z.uuid(), category: z.string() })),
})

export const projectResultSchema = z.object({ project: projectSchema })
export type ProjectResult = z.infer<typeof projectResultSchema>
