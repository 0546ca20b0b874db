import { isDeepStrictEqual } from 'node:util'
import * as z from 'zod/mini'
import { UNAUTHORIZED_DESCRIPTIONS } from '../errors'
import { ERROR_RESPONSES } from './errorResponses'
import { type Components, JSON_TYPE, jsonContent, jsonSchema, schemaRef } from './jsonSchemas'

export type UnauthorizedCode = keyof typeof UNAUTHORIZED_DESCRIPTIONS

/**
 * The error envelope of DECISIONS §1 with `code` one of `codes`, so a client's switch on it is
 * exhaustive. Only a 400 carries `details` (lib/http/validateInput.ts), only a 500 `requestId`
 * (lib/http/errorHandler.ts).
 */
function errorEnvelopeSchema(codes: number[]) {
  const code = z.int().check(z.minimum(Math.min(...codes)), z.maximum(Math.max(...codes)))
  z.globalRegistry.add(code, { enum: codes })
  const status = codes[0]
  return z.object({
    ok: z.literal(false),
    error: z.object({
      code,
      message: z.string(),
      ...(status === 400 && {
        details: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
      }),
      // The id under which the failure was logged.
      ...(status === 500 && { requestId: z.string() }),
    }),
  })
}

// The 401s a route can answer, by the sub-codes it can give (a token route, a sign-in, a `{key}`).
export const UNAUTHORIZED_SCHEMAS: Record<
  string,
  { response: string; codes: UnauthorizedCode[]; description: string }
> = {
  Error401Token: {
    response: 'TokenRejected',
    codes: [401001, 401002, 401003],
    description: 'The token is missing, invalid or of an ended session.',
  },
  Error401Credentials: {
    response: 'CredentialsRejected',
    codes: [401004],
    description: 'The credentials were rejected.',
  },
  Error401TokenOrKey: {
    response: 'TokenOrKeyRejected',
    codes: [401001, 401002, 401003, 401004],
    description:
      'The token is missing, invalid or of an ended session, or `{key}` is not its wallet.',
  },
}

// Named once per process: zod refuses a second schema under a name its registry already holds.
const ERROR_SCHEMAS = new Map<string, z.core.$ZodType>([
  ...Object.keys(ERROR_RESPONSES).map(
    (status) => [`Error${status}`, errorEnvelopeSchema([Number(status)])] as const,
  ),
  ...Object.entries(UNAUTHORIZED_SCHEMAS).map(
    ([name, { codes }]) => [name, errorEnvelopeSchema(codes)] as const,
  ),
])
for (const [id, schema] of ERROR_SCHEMAS) z.globalRegistry.add(schema, { id })

const RETRY_AFTER = {
  description:
    'Seconds to wait before trying again (sent by the service; the gateway may omit it).',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
}

// What API Gateway itself answers (throttled, body over its limit, a function that crashed): its
// own body, outside the envelope, since an HTTP API cannot rewrite gateway responses.
export const GATEWAY_ERROR = {
  type: 'object',
  description: 'Answered by API Gateway itself, not the service: no `ok`, no `code`.',
  properties: { message: { type: 'string', maxLength: 100 } },
  required: ['message'],
  examples: [{ message: 'Too Many Requests' }],
}

export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

// Responses only API Gateway gives: its stage throttle on a route without a budget of the
// service's own, and a function that crashed or timed out where the service answers no 500.
export const GATEWAY_ONLY = { 429: 'Throttled', 500: 'GatewayInternalError' } as const

/** The first sub-code's envelope, the example of a 401 answering `codes`. */
const unauthorizedExample = (codes: UnauthorizedCode[]) => ({
  ok: false,
  error: { code: codes[0], message: UNAUTHORIZED_DESCRIPTIONS[codes[0] ?? 401001] },
})

/** The 401 response of the routes answering `codes`, as a component (`responses`). */
function unauthorizedResponse(name: string) {
  const { codes, description } = UNAUTHORIZED_SCHEMAS[name] ?? { codes: [], description: '' }
  return {
    description: `${description} ${codes.map((code) => `${code}: ${UNAUTHORIZED_DESCRIPTIONS[code]}`).join('; ')}`,
    content: jsonContent(schemaRef(name), unauthorizedExample(codes)),
  }
}

/** The name of the 401 response (and its schema) for the sub-codes a route can answer. */
export function unauthorizedName(codes: UnauthorizedCode[]): string | undefined {
  if (codes.length === 0) return undefined
  const named = Object.entries(UNAUTHORIZED_SCHEMAS).find(([, entry]) =>
    isDeepStrictEqual(entry.codes, codes),
  )
  if (!named) throw new Error(`no 401 schema answers exactly ${codes.join(', ')}`)
  return named[0]
}

/** The service's error responses by name, each schema in `errorSchemas` given its example. */
function serviceErrorResponses(errorSchemas: Components) {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description, gateway, example }]) => {
      const envelope = { ok: false, error: { code: Number(status), ...example } }
      const errorSchema = errorSchemas[`Error${status}`]
      if (errorSchema) errorSchema.examples = [envelope]
      return [
        name,
        {
          description,
          ...(name === 'TooManyRequests' && { headers: { 'Retry-After': RETRY_AFTER } }),
          content: {
            [JSON_TYPE]: {
              schema: gateway
                ? { oneOf: [schemaRef(`Error${status}`), schemaRef('GatewayError')] }
                : schemaRef(`Error${status}`),
              example: envelope,
            },
          },
        },
      ]
    }),
  )
}

const GATEWAY_ONLY_RESPONSES = {
  [GATEWAY_ONLY[429]]: {
    description:
      'Over the stage throttle (API Gateway). `Retry-After` may be absent: wait and try again.',
    headers: { 'Retry-After': RETRY_AFTER },
    content: jsonContent(schemaRef('GatewayError'), { message: 'Too Many Requests' }),
  },
  [GATEWAY_ONLY[500]]: {
    description: 'The function crashed or timed out (API Gateway).',
    content: jsonContent(schemaRef('GatewayError'), { message: 'Internal Server Error' }),
  },
}

/** The error envelopes' schemas (with examples) and every error response, for `components`. */
export function errorComponents() {
  const errorSchemas: Components = {}
  for (const schema of ERROR_SCHEMAS.values()) jsonSchema(schema, 'output', errorSchemas)
  const serviceErrors = serviceErrorResponses(errorSchemas)
  const unauthorizedResponses = Object.fromEntries(
    Object.entries(UNAUTHORIZED_SCHEMAS).map(([name, { response }]) => [
      response,
      unauthorizedResponse(name),
    ]),
  )
  const responses = { ...unauthorizedResponses, ...serviceErrors, ...GATEWAY_ONLY_RESPONSES }
  for (const [name, { codes }] of Object.entries(UNAUTHORIZED_SCHEMAS)) {
    const errorSchema = errorSchemas[name]
    if (errorSchema) errorSchema.examples = [unauthorizedExample(codes)]
  }
  return { errorSchemas, responses }
}
