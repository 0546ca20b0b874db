import { networkNameSchema } from './networks'
import * as z from './zod'

const decimalString = z
  .string()
  .check(z.regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string'))
const link = z.optional(z.url({ protocol: /^https?$/ }))
const label = z.string().check(z.minLength(1), z.maxLength(50))

export const socialLinksSchema = z.strictObject({
  website: link,
  explorer: link,
  twitter: link,
  facebook: link,
  instagram: link,
  telegram: link,
  discord: link,
  reddit: link,
  youtube: link,
  github: link,
  medium: link,
})

/** One project of a catalog file: a token the service knows. */
export const catalogEntrySchema = z.strictObject({
  network: networkNameSchema,
  address: z
    .string()
    .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')),
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  symbol: z.string().check(z.minLength(1), z.maxLength(20)),
  decimals: z.int().check(z.minimum(0), z.maximum(36)),
  industry: z._default(z.string().check(z.maxLength(100)), ''),
  description: z._default(z.string().check(z.maxLength(5000)), ''),
  circulatingSupply: z.optional(decimalString),
  social: z._default(socialLinksSchema, {}),
  tags: z._default(z.array(label).check(z.maxLength(50)), []),
  categories: z._default(z.array(label).check(z.maxLength(50)), []),
})

export const catalogFileSchema = z.strictObject({
  projects: z.array(catalogEntrySchema).check(z.minLength(1)),
})

export type CatalogEntry = z.infer<typeof catalogEntrySchema>
export type CatalogFile = z.infer<typeof catalogFileSchema>
