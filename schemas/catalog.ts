import * as z from 'zod'
import { networkNameSchema } from './networks'

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string')
const link = z.url({ protocol: /^https?$/ })

export const socialLinksSchema = z.strictObject({
  website: link.optional(),
  explorer: link.optional(),
  twitter: link.optional(),
  facebook: link.optional(),
  instagram: link.optional(),
  telegram: link.optional(),
  discord: link.optional(),
  reddit: link.optional(),
  youtube: link.optional(),
  github: link.optional(),
  medium: link.optional(),
})

/** One project of a catalog file: a token the service knows. */
export const catalogEntrySchema = z.strictObject({
  network: networkNameSchema,
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address'),
  name: z.string().min(1).max(100),
  symbol: z.string().min(1).max(20),
  decimals: z.number().int().min(0).max(36),
  industry: z.string().max(100).default(''),
  description: z.string().max(5000).default(''),
  circulatingSupply: decimalString.optional(),
  social: socialLinksSchema.default({}),
  tags: z.array(z.string().min(1).max(50)).max(50).default([]),
  categories: z.array(z.string().min(1).max(50)).max(50).default([]),
})

export const catalogFileSchema = z.strictObject({
  projects: z.array(catalogEntrySchema).min(1),
})

export type CatalogEntry = z.infer<typeof catalogEntrySchema>
export type CatalogFile = z.infer<typeof catalogFileSchema>
