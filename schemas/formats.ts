import {
  MAX_LINK_CHARS,
  MAX_PATH_TOKENS,
  MAX_PRIVATE_KEY_CHARS,
  MAX_SIGNED_HEX_DIGITS,
} from './limits'
import * as z from './zod'

// String formats that requests and results share. Each pattern is anchored and bounds the length,
// so the `maxLength` beside it in the OpenAPI document is enforced by the pattern itself.

type Keywords = z.core.GlobalMeta

/**
 * Adds JSON Schema keywords to the OpenAPI document that a check already enforces without zod
 * spelling them out: a length the schema's pattern bounds, the pattern a refinement or a lib/
 * parser checks, an array bound a refinement enforces.
 */
export function documented<Schema extends z.ZodMiniType>(schema: Schema, keywords: Keywords) {
  z.globalRegistry.add(schema, keywords)
  return schema
}

/** A string matching `pattern`, at most `maxLength` long (which the pattern implies). */
function patterned(pattern: RegExp, maxLength: number) {
  return documented(z.string().check(z.regex(pattern)), { maxLength })
}

/** A 0x address in any case, as results carry them (checksummed where the service writes them). */
export const addressString = patterned(/^0x[0-9a-fA-F]{40}$/, 42)

/** A swap route: tokenIn, the tokens between, tokenOut. */
export const tokenPathSchema = z.array(addressString).check(z.maxLength(MAX_PATH_TOKENS))

/** A transaction hash as the service writes it: 0x and 64 lower-case hex digits. */
export const txHashString = patterned(/^0x[0-9a-f]{64}$/, 66)

/** A quantity as JSON-RPC writes it: 0x and up to 64 lower-case hex digits (a uint256). */
export const hexQuantityString = patterned(/^0x[0-9a-f]{1,64}$/, 66)

/** Call data: 0x and whole bytes in lower-case hex, no more than a signed transaction holds. */
export const hexDataString = patterned(
  new RegExp(`^0x([0-9a-f]{2}){0,${MAX_SIGNED_HEX_DIGITS / 2}}$`),
  2 + MAX_SIGNED_HEX_DIGITS,
)

/**
 * The exact twin of a JSON number that carries a token amount or a supply: the same value in whole
 * units as a decimal string, every digit kept (a JSON number keeps about 16). Written by viem's
 * formatUnits from bigint base units: no exponent, no trailing zeros, no sign.
 */
export const exactAmountString = documented(z.string().check(z.regex(/^\d{1,78}(\.\d{1,36})?$/)), {
  maxLength: 78 + 1 + 36,
  description: 'Exact decimal string in whole units, e.g. "62293681.038691758060043412713395".',
})

/** An exact amount in base units (wei, the token's smallest unit) as a decimal string. */
export const baseUnitsString = documented(z.string().check(z.regex(/^\d{1,78}$/)), {
  maxLength: 78,
  description:
    'Exact amount in base units as a decimal string, e.g. "62293681038691758060043412713395".',
})

/** An id the service issues: an RFC 9562 UUID, 36 characters. */
export const uuidString = documented(z.uuid(), { maxLength: 36 })

/** The interface's timestamp, `YYYY-MM-DD HH:MM:SS.ffffff +00:00` (lib/formatTimestamp.ts). */
export const timestampString = patterned(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} \+00:00$/, 33)

/** An http(s) link of the catalog. */
export const linkString = z.url({ protocol: /^https?$/ }).check(z.maxLength(MAX_LINK_CHARS))

/**
 * A private key as lib/wallet/privateKey.ts parses it (64 hex digits, `0x` or not, any case,
 * whitespace around): only its length is checked here, since lib/wallet names what is wrong
 * without quoting the key, as a zod message about its content might.
 */
export function privateKeyInput() {
  return documented(
    z
      .string()
      .check(
        z.maxLength(MAX_PRIVATE_KEY_CHARS, `must be at most ${MAX_PRIVATE_KEY_CHARS} characters`),
      ),
    { pattern: '^\\s*(0[xX])?[0-9a-fA-F]{64}\\s*$' },
  )
}

// A field name that reads as a name (not a key or a phrase a client put in the wrong place).
const PLAIN_FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/

/**
 * The message of an unknown field on a route that quotes or moves value (DECISIONS §10.1): it
 * names the field, so a client asking a newer stage's feature (`type=exactOut`) of an older one
 * learns why it was refused rather than getting another trade; a name that does not read as a
 * field name (a client may have put its secret there) is not quoted.
 */
export function unknownFieldsError(where: 'body' | 'query', fields: string) {
  const takes = `the ${where} takes only ${fields}`
  return (issue: { code?: string; keys?: readonly string[] }) => {
    if (issue.code !== 'unrecognized_keys') return undefined
    const named = (issue.keys ?? []).filter((key) => PLAIN_FIELD_NAME.test(key))
    const kind = where === 'body' ? 'field' : 'query parameter'
    if (named.length === 0) return `unknown ${kind}; ${takes}`
    const list = named.map((key) => `"${key}"`).join(', ')
    return `unknown ${kind}${named.length > 1 ? 's' : ''} ${list}; ${takes}`
  }
}
