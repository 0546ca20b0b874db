import * as fc from 'fast-check'
import type { RouteDefinition } from '../../lib/openapi/documentedRoute'
import { type Components, jsonSchema, type JsonSchema } from '../../lib/openapi/jsonSchemas'
import * as z from '../../schemas/zod'
import {
  bodyBreakers,
  type FieldRule,
  junkString,
  type MalformedRequest,
  nonAscii,
  oddUnicode,
  pathBreakers,
  queryBreakers,
  type RequestParts,
  wrongType,
} from './malformedRequests'

// The bad-input sweep's field cases, derived from the route's own zod schemas (issue 42): each
// schema is read as the OpenAPI document reads it (lib/openapi/jsonSchemas.ts: types, bounds,
// lengths, patterns, enums, required fields, strictness) and every field gets values of the wrong
// type, out of its range, too long or too short, off its pattern or its enum; a required field is
// left out and, where the object is strict, an unknown one is added. A schema change changes the
// cases with no edit here. Each value is kept only if the field's zod schema refuses it (a
// candidate such as `Asc` for a direction that is upper-cased first is dropped), so every case is
// one the route must answer with a 400 naming the field. What a schema cannot say (cross-field
// rules, checks made in code) stays hand-written in the test.

export type Place = 'params' | 'query' | 'body'

type ZodType = z.core.$ZodType

interface ObjectNode {
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: unknown
}

/** The schemas `defineHandler` attached to a handler (lib/http/defineHandler.ts), if any. */
export function routeDefinition(handler: unknown): RouteDefinition | undefined {
  return (handler as { route?: RouteDefinition }).route
}

/** The object schema's field schemas, through pipes, defaults and wrappers. */
function shapeOf(schema: ZodType): Record<string, ZodType> | undefined {
  const def = schema._zod.def as {
    shape?: Record<string, ZodType>
    in?: ZodType
    innerType?: ZodType
  }
  return def.shape ?? (def.in && shapeOf(def.in)) ?? (def.innerType && shapeOf(def.innerType))
}

/** Whether the schema refuses `value` in place of the field `name` of the valid `part`. */
function refuses(schema: ZodType, part: Record<string, unknown>, name: string, value: unknown) {
  const field = shapeOf(schema)?.[name]
  if (field) return !z.safeParse(field, value).success
  return !z.safeParse(schema, { ...part, [name]: value }).success
}

const NOT_IN_PATTERN = ['g', 'G', 'z', 'x', '-', ' ', '.', '/', '_', 'ä', '０', '\u0000', '🦊']

/** One-character edits of `valid` (and a few whole-string ones): off a pattern, mostly. */
function mutants(valid: string): fc.Arbitrary<string> {
  const at = fc.integer({ min: 0, max: Math.max(valid.length - 1, 0) })
  const char = fc.constantFrom(...NOT_IN_PATTERN)
  return fc.oneof(
    fc.tuple(at, char).map(([i, c]) => `${valid.slice(0, i)}${c}${valid.slice(i + 1)}`),
    fc.tuple(at, char).map(([i, c]) => `${valid.slice(0, i)}${c}${valid.slice(i)}`),
    at.map((i) => `${valid.slice(0, i)}${valid.slice(i + 1)}`),
    fc.constantFrom(
      ` ${valid}`,
      `${valid} `,
      `${valid}${valid}`,
      `${valid},${valid}`,
      valid.toUpperCase(),
      valid.slice(1),
      valid.slice(0, -1),
    ),
  )
}

/** Strings the node's enum, pattern and lengths refuse (and, in a body, other JSON types). */
function badStrings(node: JsonSchema, place: Place, valid: unknown): fc.Arbitrary<unknown>[] {
  const example = typeof valid === 'string' ? valid : ((node.enum?.[0] as string) ?? 'a')
  const options: fc.Arbitrary<unknown>[] = [junkString, fc.string({ maxLength: 20 })]
  if (node.enum) options.push(fc.constantFrom(...(node.enum as string[])).chain(mutants))
  if (node.pattern !== undefined) options.push(mutants(example))
  if (node.maxLength !== undefined) {
    const max = node.maxLength
    options.push(fc.integer({ min: max + 1, max: max + 200 }).map((n) => example.padEnd(n, 'a')))
  }
  if (node.minLength !== undefined && node.minLength > 0) {
    options.push(fc.string({ unit: 'binary-ascii', maxLength: node.minLength - 1 }))
  }
  if (place === 'body') options.push(wrongType('string'))
  return options
}

/** Numbers outside the node's bounds or not integers (as digits in a query or a path). */
function badNumbers(node: JsonSchema, place: Place): fc.Arbitrary<unknown>[] {
  const min = Number(node.minimum ?? node.exclusiveMinimum ?? -(2 ** 53))
  const max = Number(node.maximum ?? node.exclusiveMaximum ?? 2 ** 53)
  const step = fc.integer({ min: 1, max: 1_000_000 })
  const numbers: fc.Arbitrary<number>[] = [
    step.map((below) => min - below),
    step.map((above) => max + above),
    fc.constantFrom(min - 1, max + 1, 1e20, -1e20),
    ...(node.exclusiveMinimum === undefined ? [] : [fc.constant(min)]),
    ...(node.exclusiveMaximum === undefined ? [] : [fc.constant(max)]),
  ]
  if (node.type === 'integer') {
    numbers.push(
      fc
        .double({ min: Math.max(min - 10, -1e15), max: Math.min(max + 10, 1e15), noNaN: true })
        .filter((x) => !Number.isInteger(x)),
    )
  }
  if (place === 'body') return [...numbers, wrongType('number')]
  // A query or path value arrives as text: numbers written otherwise than as plain digits too.
  return [
    ...numbers.map((number) => number.map(String)),
    fc.constantFrom('-1', '1.5', '1e2', ' 1', '1 ', '+1', '0x10', '', 'NaN', 'Infinity', '１'),
    fc.integer({ min: 17, max: 30 }).map((digits) => '9'.repeat(digits)),
    junkString,
    nonAscii,
    oddUnicode,
  ]
}

/** Arrays of the wrong length or with one bad item, and other types. */
function badArrays(node: JsonSchema, valid: unknown): fc.Arbitrary<unknown>[] {
  const items = (node.items ?? {}) as JsonSchema
  const list = Array.isArray(valid) ? (valid as unknown[]) : []
  const item: fc.Arbitrary<unknown> =
    list.length > 0 ? fc.constant(list[0]) : items.format === 'uuid' ? fc.uuid() : fc.string()
  const options: fc.Arbitrary<unknown>[] = [
    wrongType('array'),
    fc
      .tuple(fc.oneof(...badValues(items, 'body', list[0])), fc.nat())
      .map(([bad, at]) => list.toSpliced(at % (list.length + 1), 0, bad)),
  ]
  if (node.maxItems !== undefined) {
    const max = node.maxItems
    options.push(fc.array(item, { minLength: max + 1, maxLength: max + 20 }))
  }
  if (node.minItems !== undefined && node.minItems > 0) {
    options.push(fc.array(item, { maxLength: node.minItems - 1 }))
  }
  return options
}

/** Candidate bad values for a field of `node`'s schema in `place`, `valid` its valid value. */
function badValues(node: JsonSchema, place: Place, valid: unknown): fc.Arbitrary<unknown>[] {
  switch (node.type) {
    case 'string':
      return badStrings(node, place, valid)
    case 'integer':
    case 'number':
      return badNumbers(node, place)
    case 'array':
      return badArrays(node, valid)
    default:
      // Booleans, unions: any other JSON value (the zod check keeps those it refuses).
      return [wrongType('array'), junkString]
  }
}

/** What the generated cases of one part of a request are made of. */
export interface PartRules {
  fields: Record<string, FieldRule>
  /** Unknown fields are refused (a strict object). */
  strict: boolean
}

/** Field rules for one part of a route's input, read from its schema. */
export function partRules(schema: ZodType, place: Place, valid: RequestParts): PartRules {
  const components: Components = {}
  const node = jsonSchema(schema, 'input', components) as ObjectNode
  const part = ((place === 'params'
    ? valid.pathParameters
    : place === 'query'
      ? valid.queryStringParameters
      : valid.body) ?? {}) as Record<string, unknown>
  const required = new Set(node.required ?? [])
  const fields = Object.fromEntries(
    Object.entries(node.properties ?? {}).map(([name, field]) => {
      const resolved = resolveRef(field, components)
      const bad = fc
        .oneof(...badValues(resolved, place, part[name]))
        .map((value) => (place === 'body' ? value : String(value)))
        .filter((value) => refuses(schema, part, name, value))
      return [name, { bad, required: required.has(name) } satisfies FieldRule]
    }),
  )
  return { fields, strict: node.additionalProperties === false }
}

function resolveRef(node: JsonSchema, components: Components): JsonSchema {
  const ref = (node as { $ref?: string }).$ref
  if (!ref) return node
  return components[ref.split('/').at(-1) ?? ''] ?? node
}

export interface SchemaBreakerOptions {
  /** Fields whose values must never come back (keys, phrases, passwords): no schema says so. */
  secretFields?: string[]
}

/**
 * Every generated case of a route: its path parameters', its query's and its body's, each from
 * the schema the handler validates that part with, around the valid request `valid`.
 */
export function schemaBreakers(
  handler: unknown,
  valid: RequestParts,
  { secretFields = [] }: SchemaBreakerOptions = {},
): fc.Arbitrary<MalformedRequest>[] {
  const route = routeDefinition(handler)
  if (!route) return []
  const breakers: fc.Arbitrary<MalformedRequest>[] = []
  if (route.params) {
    const { fields } = partRules(route.params, 'params', valid)
    for (const [name, rule] of Object.entries(fields)) {
      const secret = secretFields.includes(name)
      breakers.push(...pathBreakers(valid, name, rule.bad as fc.Arbitrary<string>, { secret }))
    }
  }
  if (route.query) {
    const { fields, strict } = partRules(route.query, 'query', valid)
    breakers.push(...queryBreakers(valid, fields, { strict }))
  }
  if (route.body) {
    const { fields, strict } = partRules(route.body, 'body', valid)
    breakers.push(...bodyBreakers(valid, fields, { secretFields, strict }))
  }
  return breakers
}

/** How many fields and generated kinds of breakage a route has (the sweep's report). */
export function schemaFieldCount(handler: unknown, valid: RequestParts): number {
  const route = routeDefinition(handler)
  let count = 0
  for (const place of ['params', 'query', 'body'] as const) {
    const schema = route?.[place]
    if (schema) count += Object.keys(partRules(schema, place, valid).fields).length
  }
  return count
}
