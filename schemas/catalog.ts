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
import { SOCIAL_LINKS } from '../lib/constants'
import { networkNameSchema } from './networks'
import * as z from './zod'

const decimalString = z
  .string()
  .check(z.regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string'))
const link = z.optional(linkString)

/** The catalog's bounded fields, as a project answers them (schemas/project.ts). */
export const catalogFields = {
  name: z.string().check(z.maxLength(MAX_NAME_CHARS)),
  symbol: z.string().check(z.maxLength(MAX_SYMBOL_CHARS)),
  decimals: z.int().check(z.minimum(0), z.maximum(MAX_DECIMALS)),
  industry: z.string().check(z.maxLength(MAX_INDUSTRY_CHARS)),
  description: z.string().check(z.maxLength(MAX_DESCRIPTION_CHARS)),
  label: z.string().check(z.maxLength(MAX_LABEL_CHARS)),
}
const nonEmpty = z.minLength(1)

/** An object schema's shape with `value` for each social link. */
export function socialLinksShape<Value extends z.ZodMiniType>(value: Value) {
  return Object.fromEntries(SOCIAL_LINKS.map((name) => [name, value])) as Record<
    (typeof SOCIAL_LINKS)[number],
    Value
  >
}

export const socialLinksSchema = z.strictObject(socialLinksShape(link))

/** One project of a catalog file: a token the service knows. */
export const catalogEntrySchema = z.strictObject({
  network: networkNameSchema,
  address: z
    .string()
    .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')),
  name: catalogFields.name.check(nonEmpty),
  symbol: catalogFields.symbol.check(nonEmpty),
  decimals: catalogFields.decimals,
  industry: z._default(catalogFields.industry, ''),
  description: z._default(catalogFields.description, ''),
  circulatingSupply: z.optional(decimalString),
  // Deposits below this many whole tokens are dust while the token has no price (DECISIONS §9.1).
  dustMinimum: z.optional(decimalString),
  social: z._default(socialLinksSchema, {}),
  tags: z._default(z.array(catalogFields.label.check(nonEmpty)).check(z.maxLength(MAX_LABELS)), []),
  categories: z._default(
    z.array(catalogFields.label.check(nonEmpty)).check(z.maxLength(MAX_LABELS)),
    [],
  ),
})

export const catalogFileSchema = z.strictObject({
  projects: z.array(catalogEntrySchema).check(z.minLength(1)),
})

export type CatalogEntry = z.infer<typeof catalogEntrySchema>
export type CatalogFile = z.infer<typeof catalogFileSchema>
