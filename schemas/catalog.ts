import { linkString } from './formats'
import {
  MAX_DECIMALS,
  MAX_DESCRIPTION_CHARS,
  MAX_INDUSTRY_CHARS,
  MAX_LABEL_CHARS,
  MAX_LABELS,
  MAX_NAME_CHARS,
  MAX_SYMBOL_CHARS,
} from './limits'
import { networkNameSchema } from './networks'
import * as z from './zod'

const decimalString = z
  .string()
  .check(z.regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string'))
const link = z.optional(linkString)
const label = z.string().check(z.minLength(1), z.maxLength(MAX_LABEL_CHARS))

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
  name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_CHARS)),
  symbol: z.string().check(z.minLength(1), z.maxLength(MAX_SYMBOL_CHARS)),
  decimals: z.int().check(z.minimum(0), z.maximum(MAX_DECIMALS)),
  industry: z._default(z.string().check(z.maxLength(MAX_INDUSTRY_CHARS)), ''),
  description: z._default(z.string().check(z.maxLength(MAX_DESCRIPTION_CHARS)), ''),
  circulatingSupply: z.optional(decimalString),
  social: z._default(socialLinksSchema, {}),
  tags: z._default(z.array(label).check(z.maxLength(MAX_LABELS)), []),
  categories: z._default(z.array(label).check(z.maxLength(MAX_LABELS)), []),
})

export const catalogFileSchema = z.strictObject({
  projects: z.array(catalogEntrySchema).check(z.minLength(1)),
})

export type CatalogEntry = z.infer<typeof catalogEntrySchema>
export type CatalogFile = z.infer<typeof catalogFileSchema>
