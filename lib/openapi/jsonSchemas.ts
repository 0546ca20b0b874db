import { isDeepStrictEqual } from 'node:util'
import * as z from 'zod/mini'

export type JsonSchema = z.core.JSONSchema.BaseSchema

/** The component schemas the conversions meet, by name, each checked the same wherever met. */
export type Components = Record<string, JsonSchema>

export const JSON_TYPE = 'application/json'

const SCHEMA_REF = '#/components/schemas/'
export const schemaRef = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` })

export const jsonContent = (schema: JsonSchema, example?: unknown) => ({
  [JSON_TYPE]: { schema, ...(example !== undefined && { example }) },
})

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 }

/**
 * Query values arrive as strings; those schemas/query.ts marks are documented as what they are
 * parsed into (an integer, or one of a closed set), since a client sends them as such and the
 * query string carries them unchanged. Every integer gets the format its bounds fit (`z.int()`
 * bounds it by the safe range at least).
 */
function refineSchema({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  const queryInteger = jsonSchema['x-query-integer'] as
    { minimum: number; maximum: number } | undefined
  const queryEnum = jsonSchema['x-query-enum'] as string[] | undefined
  delete jsonSchema['x-query-integer']
  delete jsonSchema['x-query-enum']
  if (queryInteger) {
    for (const key of Object.keys(jsonSchema)) if (key !== 'default') delete jsonSchema[key]
    Object.assign(jsonSchema, { type: 'integer', ...queryInteger })
  }
  if (queryEnum) {
    for (const key of Object.keys(jsonSchema)) if (key !== 'default') delete jsonSchema[key]
    Object.assign(jsonSchema, { type: 'string', enum: queryEnum })
  }
  if (jsonSchema.type === 'integer' && jsonSchema.format === undefined) {
    const bound = (value: unknown, otherwise: number) =>
      typeof value === 'number' ? value : otherwise
    const low = bound(jsonSchema.minimum ?? jsonSchema.exclusiveMinimum, -Infinity)
    const high = bound(jsonSchema.maximum ?? jsonSchema.exclusiveMaximum, Infinity)
    jsonSchema.format = low >= INT32.min && high <= INT32.max ? 'int32' : 'int64'
  }
}

/** `node` with zod's `#/$defs/Name` references pointing at the document's component schemas. */
function toComponentRefs<Node>(node: Node): Node {
  return JSON.parse(JSON.stringify(node).replaceAll('"#/$defs/', `"${SCHEMA_REF}`)) as Node
}

/** `schema` as JSON Schema, the component schemas it meets moved into `components`. */
export function jsonSchema(
  schema: z.core.$ZodType,
  io: 'input' | 'output',
  components: Components,
) {
  // Inputs are documented as clients send them (before transforms, defaults optional).
  const {
    $schema: _dialect,
    $defs = {},
    ...rest
  } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', override: refineSchema })
  for (const [name, definition] of Object.entries($defs)) {
    const moved = toComponentRefs(definition)
    const known = components[name]
    if (known && !isDeepStrictEqual(known, moved)) {
      throw new Error(`the component schema ${name} differs where it is used (${io})`)
    }
    components[name] = moved
  }
  return toComponentRefs(rest as JsonSchema)
}

/**
 * Each component's example: the value found at its place in a route's example, first found first.
 * `node` is the schema at that place, `value` the example's value there.
 */
export function findExamples(
  node: JsonSchema | undefined,
  value: unknown,
  components: Components,
  found: Map<string, unknown>,
): void {
  if (!node || value === undefined || value === null) return
  if (typeof node.$ref === 'string' && node.$ref.startsWith(SCHEMA_REF)) {
    const name = node.$ref.slice(SCHEMA_REF.length)
    if (!found.has(name)) found.set(name, value)
    findExamples(components[name], value, components, found)
  } else if (Array.isArray(value)) {
    findExamples(node.items as JsonSchema | undefined, value[0], components, found)
  } else if (typeof value === 'object' && node.properties) {
    for (const [key, property] of Object.entries(node.properties)) {
      findExamples(
        property as JsonSchema,
        (value as Record<string, unknown>)[key],
        components,
        found,
      )
    }
  }
}
