import * as z from './zod'

// Query-string shapes shared by routes: every value arrives as a string.

/**
 * Digits only: `1e5`, `0x10`, `-1`, `1.0` and ` 1` are refused rather than coerced. The document
 * types it as the integer it becomes (`x-query-integer`, read by lib/openapi), so a typed client
 * passes `limit: 20`; the query string carries it as digits either way.
 */
export function integerString(min: number, max: number) {
  return z
    .pipe(
      z.pipe(
        z.string().check(z.regex(/^\d{1,16}$/, 'must be a whole number')),
        z.transform(Number),
      ),
      z.int().check(z.minimum(min), z.maximum(max)),
    )
    .register(z.globalRegistry, { 'x-query-integer': { minimum: min, maximum: max } })
}

/** ASC or DESC in any case (DECISIONS §4, §5): `asc` is ASC. */
export const directionSchema = z._default(
  z
    .pipe(z.string().check(z.toUpperCase()), z.enum(['ASC', 'DESC'], 'must be ASC or DESC'))
    .register(z.globalRegistry, { 'x-query-enum': ['ASC', 'DESC', 'asc', 'desc'] }),
  'DESC',
)
