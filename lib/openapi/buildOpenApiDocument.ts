import * as z from 'zod/mini'
import type { Guard } from '../http/types'
import { UNAUTHORIZED_DESCRIPTIONS } from '../errors'
import { ROUTE_DESCRIPTIONS, TAG_DESCRIPTIONS } from './routeDescriptions'
import { ERROR_RESPONSES, type ErrorStatus, ROUTE_ERRORS } from './routeErrors'
import type { RouteExample } from './routeExamples'

/** What `defineHandler` attaches to its handler as `route` (lib/http/defineHandler.ts). */
export interface RouteDefinition {
  auth: 'none' | Guard
  params?: z.core.$ZodType
  query?: z.core.$ZodType
  body?: z.core.$ZodType
  result: z.core.$ZodType
  /** Present on routes with a per-client budget (429). */
  clientLimit?: unknown
}

/** One HTTP function of serverless.yml with what its handler declares. */
export interface DocumentedRoute {
  /** The function's name in serverless.yml, used as the operationId. */
  name: string
  /** Its folder under functions/, used as the tag. */
  area: string
  method: string
  path: string
  definition: RouteDefinition
  /** What serverless.yml grants it (`access:`): the table's actions, the SSM parameters. */
  access: { table: string[]; parameters: string[] }
}

/** A route that answers something other than the JSON envelope (the docs routes). */
export interface StaticRoute {
  name: string
  area: string
  method: string
  path: string
  summary: string
  /** The media types it answers with. */
  contentTypes: string[]
  /** Its path parameters, each with the values it answers for (others are 404). */
  params?: Record<string, string[]>
}

type JsonSchema = z.core.JSONSchema.BaseSchema
type Operation = Record<string, unknown>

const JSON_TYPE = 'application/json'

// The success envelope of DECISIONS §1, around each route's own result schema.
const successEnvelope = (result: z.core.$ZodType) => z.object({ ok: z.literal(true), result })

// Every `code` the service answers: the statuses of routeErrors.ts, a 401's sub-codes instead.
const ERROR_CODES = [
  ...Object.keys(ERROR_RESPONSES).map(Number),
  ...Object.keys(UNAUTHORIZED_DESCRIPTIONS).map(Number),
].sort((a, b) => a - b)

const errorCodeSchema = z.int().check(z.minimum(400), z.maximum(Math.max(...ERROR_CODES)))
z.globalRegistry.add(errorCodeSchema, { enum: ERROR_CODES })

const errorEnvelopeSchema = z.object({
  ok: z.literal(false),
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    details: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    // Only on a 500: the id under which the failure was logged.
    requestId: z.optional(z.string()),
  }),
})

const SECURITY_SCHEMES = {
  walletAccess: 'Access token of a wallet session (`aud: wallet`, `typ: access`), 15 minutes.',
  walletRefresh: 'Refresh token of a wallet session (`aud: wallet`, `typ: refresh`), 30 days.',
  accountAccess: 'Access token of an account session (`aud: account`, `typ: access`), 15 minutes.',
  accountRefresh: 'Refresh token of an account session (`aud: account`, `typ: refresh`), 30 days.',
}

// What lib/auth/tokens.ts does, in the terms of RFC 8725 (JWT Best Current Practices).
const JWT_PRACTICES =
  'A JWS following RFC8725: one algorithm (HS256) pinned on verification, so `none` or any ' +
  'other is refused (§3.1); issuer, subject, audience and expiry verified, every claim required ' +
  '(§3.8, §3.9); access and refresh tokens, and wallet and account tokens, told apart by the required ' +
  '`typ` and `aud` claims (§3.12); a secret of at least 32 characters, 32 random bytes on ' +
  'deployed stages (§3.5).'

const UNAUTHORIZED_CODES = UNAUTHORIZED_DESCRIPTIONS

const RETRY_AFTER = {
  description:
    'Seconds to wait before trying again (sent by the service; the gateway may omit it).',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
}

// What API Gateway itself answers (throttled, body over its limit, no such route): its own body,
// outside the envelope, since an HTTP API cannot rewrite gateway responses.
const GATEWAY_ERROR = {
  type: 'object',
  description: 'Answered by API Gateway itself, not the service.',
  properties: { message: { type: 'string', maxLength: 100 } },
  required: ['message'],
}

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

function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  // Inputs are documented as clients send them (before transforms, defaults optional).
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    override: refineSchema,
  })
  return rest
}

const jsonContent = (schema: JsonSchema, example?: unknown) => ({
  [JSON_TYPE]: { schema, ...(example !== undefined && { example }) },
})

function summaryOf(name: string): string {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function parametersOf(
  schema: z.core.$ZodType | undefined,
  location: 'path' | 'query',
  examples: Record<string, unknown> = {},
) {
  if (!schema) return []
  const { properties = {}, required = [] } = jsonSchema(schema, 'input')
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    schema: property,
    ...(examples[name] !== undefined && { example: examples[name] }),
  }))
}

function securityOf(auth: RouteDefinition['auth']) {
  if (auth === 'none') return []
  const use = auth.tokenUse === 'access' ? 'Access' : 'Refresh'
  return [{ [`${auth.audience}${use}`]: [] }]
}

/** The 401 of one route, its `code` narrowed to the sub-codes that route can answer. */
function unauthorizedResponse(codes: Array<keyof typeof UNAUTHORIZED_CODES>) {
  const narrowed = {
    type: 'object' as const,
    properties: { error: { type: 'object' as const, properties: { code: { enum: codes } } } },
  }
  return {
    description: codes.map((code) => `${code}: ${UNAUTHORIZED_CODES[code]}`).join('; '),
    content: jsonContent({ allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, narrowed] }),
  }
}

function operationOf(
  { name, area, definition, access }: DocumentedRoute,
  example: RouteExample | undefined,
): Operation {
  const { auth, params, query, body, result } = definition
  const notes = ROUTE_ERRORS[name]
  if (!notes) throw new Error(`lib/openapi/routeErrors.ts lists no errors for ${name}`)
  if (!example) throw new Error(`lib/openapi/routeExamples.ts gives no example for ${name}`)
  // Errors that follow from the definition itself; the rest come from routeErrors.ts.
  const statuses = new Set<ErrorStatus>([...notes.errors, 500])
  if (params || query || body) statuses.add(400)
  if (body) statuses.add(413).add(415)
  // What its role reaches: the table can be unavailable (503), a chain node can fail (502).
  if (access.table.length > 0) statuses.add(503)
  const readsChain = access.parameters.some((parameter) => parameter.endsWith('RpcUrl'))
  if (readsChain && !notes.chainOptional) statuses.add(502)
  // Every route: the gateway throttles per stage (serverless.yml); some also have a client budget.
  statuses.add(429)
  const unauthorized: Array<keyof typeof UNAUTHORIZED_CODES> = []
  if (auth !== 'none') unauthorized.push(401001, 401002, 401003)
  if (notes.credentials) unauthorized.push(401004)

  const responses: Record<string, unknown> = {
    200: {
      description: 'OK',
      content: jsonContent(jsonSchema(successEnvelope(result), 'output'), {
        ok: true,
        result: example.result,
      }),
    },
  }
  if (unauthorized.length > 0) responses[401] = unauthorizedResponse(unauthorized)
  for (const status of [...statuses].sort()) {
    responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` }
  }
  const idempotencyKey = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A retry with the same key answers the first `txId` (and `txIds`) instead of sending again.',
    // lib/swap/idempotent.ts: 1 to 255 visible ASCII characters.
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
    example: '7f9c2d4e-retry-1',
  }
  return {
    operationId: name,
    summary: summaryOf(name),
    description: descriptionOf(name),
    tags: [area],
    security: securityOf(auth),
    parameters: [
      ...parametersOf(params, 'path', example.params),
      ...parametersOf(query, 'query', example.query),
      ...(notes.idempotencyKey ? [idempotencyKey] : []),
    ],
    ...(body && {
      requestBody: {
        required: true,
        content: jsonContent(jsonSchema(body, 'input'), example.body),
      },
    }),
    responses,
  }
}

function descriptionOf(name: string): string {
  const description = ROUTE_DESCRIPTIONS[name]
  if (!description) throw new Error(`lib/openapi/routeDescriptions.ts does not describe ${name}`)
  return description
}

function staticOperationOf(route: StaticRoute): Operation {
  const ref = (status: ErrorStatus) => ({
    $ref: `#/components/responses/${ERROR_RESPONSES[status].name}`,
  })
  return {
    operationId: route.name,
    summary: route.summary,
    description: descriptionOf(route.name),
    tags: [route.area],
    security: [],
    parameters: Object.entries(route.params ?? {}).map(([name, values]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', enum: values },
      example: values[0],
    })),
    responses: {
      200: {
        description: 'OK',
        content: Object.fromEntries(route.contentTypes.map((type) => [type, {}])),
      },
      ...(route.params && { 404: ref(404) }),
      // The stage throttle applies here too, and a crashed function is the gateway's 500.
      429: ref(429),
      500: ref(500),
    },
  }
}

/** The OpenAPI 3.1 document of every route, in the order serverless.yml declares them. */
export function buildOpenApiDocument(options: {
  version: string
  license: string
  routes: Array<DocumentedRoute | StaticRoute>
  /** Request and result examples by function name (lib/openapi/routeExamples.ts). */
  examples: Record<string, RouteExample>
}) {
  const paths: Record<string, Record<string, Operation>> = {}
  for (const route of options.routes) {
    const operation =
      'definition' in route
        ? operationOf(route, options.examples[route.name])
        : staticOperationOf(route)
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation }
  }
  const responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description, gateway, example }]) => [
      name,
      {
        description,
        ...(name === 'TooManyRequests' && { headers: { 'Retry-After': RETRY_AFTER } }),
        content: {
          [JSON_TYPE]: {
            schema: gateway
              ? { oneOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, GATEWAY_ERROR] }
              : { $ref: '#/components/schemas/ErrorEnvelope' },
            example: { ok: false, error: { code: Number(status), ...example } },
          },
        },
      },
    ]),
  )
  const securitySchemes = Object.fromEntries(
    Object.entries(SECURITY_SCHEMES).map(([name, description]) => [
      name,
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `${description} ${JWT_PRACTICES}`,
      },
    ]),
  )
  return {
    openapi: '3.1.0',
    info: {
      title: 'wallet-backend',
      version: options.version,
      contact: { name: 'The wallet-backend team' },
      // package.json's: the service is not offered under a licence.
      license: { name: options.license },
      description:
        'Sessions by wallet signature or username and password, wallets, quotes, swaps, ' +
        'transfers, trades, networks, watchlist, projects and price history. Every success is ' +
        '`{ok: true, result}`; every error is `{ok: false, error: {code, message, details?}}` ' +
        'where `code` is the HTTP status, or for a 401 one of the sub-codes ' +
        Object.entries(UNAUTHORIZED_CODES)
          .map(([code, meaning]) => `${code} (${meaning})`)
          .join(', ') +
        '.',
    },
    // The stage that serves this document first, so "Try it out" on a deployed stage's page calls
    // that stage, and on the local stack's page the local stack.
    servers: [
      {
        url: '/',
        description:
          'The stage serving this document: the local stack (`npm start`) or a deployed staging or production stage',
        'x-internal': false,
      },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: 'A deployed staging or production stage (API Gateway HTTP API)',
        'x-internal': false,
        variables: {
          apiId: { default: 'abcdef1234', description: 'The HTTP API id of the stage' },
          region: { default: 'us-east-1', description: 'The AWS region of the stage' },
        },
      },
    ],
    tags: [...new Set(options.routes.map((route) => route.area))].map((name) => {
      const description = TAG_DESCRIPTIONS[name]
      if (!description) throw new Error(`lib/openapi/routeDescriptions.ts has no tag ${name}`)
      return { name, description }
    }),
    paths,
    components: {
      schemas: { ErrorEnvelope: jsonSchema(errorEnvelopeSchema, 'output') },
      responses,
      securitySchemes,
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>
