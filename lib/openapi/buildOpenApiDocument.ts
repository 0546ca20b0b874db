import { isDeepStrictEqual } from 'node:util'
import * as z from 'zod/mini'
import type { Guard } from '../auth/guard'
import { UNAUTHORIZED_DESCRIPTIONS } from '../errors'
import { COMPONENT_NAMES } from './componentSchemas'
import { ERROR_RESPONSES, type ErrorStatus } from './errorResponses'
import type { RouteDoc, RouteExample, StaticRouteDoc } from './routeDoc'
import { TAG_DESCRIPTIONS } from './tagDescriptions'

/** What `defineHandler` attaches to its handler as `route` (lib/http/defineHandler.ts). */
export interface RouteDefinition {
  auth: 'none' | Guard
  params?: z.core.$ZodType
  query?: z.core.$ZodType
  body?: z.core.$ZodType
  result: z.core.$ZodType
  /** Present on routes with a per-client budget (429). */
  clientLimit?: unknown
  /** Present on routes charged the client's RPC budget (429). */
  rpcBudget?: unknown
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
  /** Its doc file (lib/openapi/routeDoc.ts), the example already signed. */
  doc: Omit<RouteDoc, 'example'> & { example: RouteExample }
}

/** A route that answers something other than the JSON envelope (the docs routes). */
export interface StaticRoute {
  name: string
  area: string
  method: string
  path: string
  doc: StaticRouteDoc
}

type JsonSchema = z.core.JSONSchema.BaseSchema
type Operation = Record<string, unknown>

const JSON_TYPE = 'application/json'

// The success envelope of DECISIONS §1, around each route's own result schema.
const successEnvelope = (result: z.core.$ZodType) => z.object({ ok: z.literal(true), result })

const SCHEMA_REF = '#/components/schemas/'
const schemaRef = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` })

type UnauthorizedCode = keyof typeof UNAUTHORIZED_DESCRIPTIONS

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
const UNAUTHORIZED_SCHEMAS: Record<
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

// What API Gateway itself answers (throttled, body over its limit, a function that crashed): its
// own body, outside the envelope, since an HTTP API cannot rewrite gateway responses.
const GATEWAY_ERROR = {
  type: 'object',
  description: 'Answered by API Gateway itself, not the service: no `ok`, no `code`.',
  properties: { message: { type: 'string', maxLength: 100 } },
  required: ['message'],
  examples: [{ message: 'Too Many Requests' }],
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

/** `node` with zod's `#/$defs/Name` references pointing at the document's component schemas. */
function toComponentRefs<Node>(node: Node): Node {
  return JSON.parse(JSON.stringify(node).replaceAll('"#/$defs/', `"${SCHEMA_REF}`)) as Node
}

/** The component schemas the conversions meet, by name, each checked the same wherever met. */
type Components = Record<string, JsonSchema>

function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output', components: Components) {
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
function findExamples(
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
  components: Components,
  examples: Record<string, unknown> = {},
) {
  if (!schema) return []
  const { properties = {}, required = [] } = jsonSchema(schema, 'input', components)
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

/** The 401 response of the routes answering `codes`, as a component (`responses`). */
function unauthorizedResponse(name: string) {
  const { codes, description } = UNAUTHORIZED_SCHEMAS[name] ?? { codes: [], description: '' }
  return {
    description: `${description} ${codes.map((code) => `${code}: ${UNAUTHORIZED_CODES[code]}`).join('; ')}`,
    content: jsonContent(schemaRef(name), {
      ok: false,
      error: { code: codes[0], message: UNAUTHORIZED_CODES[codes[0] ?? 401001] },
    }),
  }
}

/** The name of the 401 response (and its schema) for the sub-codes a route can answer. */
function unauthorizedName(codes: UnauthorizedCode[]): string | undefined {
  if (codes.length === 0) return undefined
  const named = Object.entries(UNAUTHORIZED_SCHEMAS).find(([, entry]) =>
    isDeepStrictEqual(entry.codes, codes),
  )
  if (!named) throw new Error(`no 401 schema answers exactly ${codes.join(', ')}`)
  return named[0]
}

function operationOf(
  { name, area, definition, access, doc: notes }: DocumentedRoute,
  components: Components,
): Operation {
  const { auth, params, query, body, result } = definition
  const { example } = notes
  // Errors that follow from the definition itself; the rest come from the route's doc.
  const statuses = new Set<ErrorStatus>([...notes.errors, 500])
  if (params || query || body) statuses.add(400)
  if (body) statuses.add(413).add(415)
  // What its role reaches: the table can be unavailable (503), a chain node can fail (502).
  if (access.table.length > 0) statuses.add(503)
  const readsChain = access.parameters.some((parameter) => parameter.endsWith('RpcUrl'))
  if (readsChain && !notes.chainOptional) statuses.add(502)
  // Every route: the gateway throttles per stage (serverless.yml); some also have a client budget.
  statuses.add(429)
  const unauthorized: UnauthorizedCode[] = []
  if (auth !== 'none') unauthorized.push(401001, 401002, 401003)
  if (notes.credentials) unauthorized.push(401004)
  // The service's own 429 (a per-client budget, a sign-in lockout) or only the gateway's throttle.
  const limited =
    statuses.has(429) &&
    (notes.errors.includes(429) || definition.clientLimit || definition.rpcBudget)

  const responses: Record<string, unknown> = {
    200: {
      description: 'OK',
      content: jsonContent(jsonSchema(successEnvelope(result), 'output', components), {
        ok: true,
        result: example.result,
      }),
    },
  }
  const unauthorizedResponseName = unauthorizedName(unauthorized)
  if (unauthorizedResponseName) {
    responses[401] = responseRef(UNAUTHORIZED_SCHEMAS[unauthorizedResponseName]?.response ?? '')
  }
  for (const status of [...statuses].sort()) {
    responses[status] = responseRef(
      status === 429 && !limited ? GATEWAY_ONLY[429] : ERROR_RESPONSES[status].name,
    )
  }
  const idempotencyKey = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A retry with the same key answers the first `txId` (and `txIds`) instead of sending again.',
    // lib/send/idempotent.ts: 1 to 255 visible ASCII characters.
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
    example: '7f9c2d4e-retry-1',
  }
  return {
    operationId: name,
    summary: summaryOf(name),
    description: notes.description,
    tags: [area],
    security: securityOf(auth),
    parameters: [
      ...parametersOf(params, 'path', components, example.params),
      ...parametersOf(query, 'query', components, example.query),
      ...(notes.idempotencyKey ? [idempotencyKey] : []),
    ],
    ...(body && {
      requestBody: {
        required: true,
        content: jsonContent(jsonSchema(body, 'input', components), example.body),
      },
    }),
    responses,
  }
}

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

// Responses only API Gateway gives: its stage throttle on a route without a budget of the
// service's own, and a function that crashed or timed out where the service answers no 500.
const GATEWAY_ONLY = { 429: 'Throttled', 500: 'GatewayInternalError' } as const

function staticOperationOf(route: StaticRoute): Operation {
  const ref = (status: ErrorStatus) => responseRef(ERROR_RESPONSES[status].name)
  const { doc } = route
  return {
    operationId: route.name,
    summary: doc.summary,
    description: doc.description,
    tags: [route.area],
    security: [],
    parameters: Object.entries(doc.params ?? {}).map(([name, values]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', enum: values },
      example: values[0],
    })),
    responses: {
      200: {
        description: 'OK',
        content: Object.fromEntries(doc.contentTypes.map((type) => [type, {}])),
      },
      ...(doc.params && { 404: ref(404) }),
      // The stage throttle applies here too, and a crashed function is the gateway's 500.
      429: responseRef(GATEWAY_ONLY[429]),
      500: responseRef(GATEWAY_ONLY[500]),
    },
  }
}

/** The OpenAPI 3.1 document of every route, in the order serverless.yml declares them. */
export function buildOpenApiDocument(options: {
  version: string
  license: string
  routes: Array<DocumentedRoute | StaticRoute>
}) {
  const paths: Record<string, Record<string, Operation>> = {}
  const components: Components = {}
  for (const route of options.routes) {
    const operation =
      'definition' in route ? operationOf(route, components) : staticOperationOf(route)
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation }
  }
  const examples = new Map<string, unknown>()
  for (const route of options.routes) {
    if (!('definition' in route)) continue
    const { requestBody, responses } = paths[route.path]?.[route.method.toLowerCase()] as {
      requestBody?: { content: Record<string, { schema: JsonSchema; example?: unknown }> }
      responses: Record<
        string,
        { content?: Record<string, { schema: JsonSchema; example?: unknown }> }
      >
    }
    const body = requestBody?.content[JSON_TYPE]
    const answer = responses[200]?.content?.[JSON_TYPE]
    findExamples(body?.schema, body?.example, components, examples)
    findExamples(answer?.schema, answer?.example, components, examples)
  }
  const errorSchemas: Components = {}
  for (const schema of ERROR_SCHEMAS.values()) jsonSchema(schema, 'output', errorSchemas)
  const serviceErrors = Object.fromEntries(
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
  const gatewayOnly = {
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
  const unauthorizedResponses = Object.fromEntries(
    Object.entries(UNAUTHORIZED_SCHEMAS).map(([name, { response }]) => [
      response,
      unauthorizedResponse(name),
    ]),
  )
  const responses = { ...unauthorizedResponses, ...serviceErrors, ...gatewayOnly }
  for (const name of Object.keys(UNAUTHORIZED_SCHEMAS)) {
    const codes = UNAUTHORIZED_SCHEMAS[name]?.codes ?? []
    const errorSchema = errorSchemas[name]
    if (errorSchema) {
      errorSchema.examples = [
        { ok: false, error: { code: codes[0], message: UNAUTHORIZED_CODES[codes[0] ?? 401001] } },
      ]
    }
  }
  const named: Components = {}
  for (const name of COMPONENT_NAMES) {
    const schema = components[name]
    if (!schema)
      throw new Error(`lib/openapi/componentSchemas.ts names ${name}, which no route uses`)
    if (!examples.has(name)) throw new Error(`no route example shows the component ${name}`)
    named[name] = { ...schema, examples: [examples.get(name)] }
  }
  const unnamed = Object.keys(components).filter((name) => !(name in named))
  if (unnamed.length > 0)
    throw new Error(`component schemas outside componentSchemas.ts: ${unnamed.join(', ')}`)
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
      if (!description) throw new Error(`lib/openapi/tagDescriptions.ts has no tag ${name}`)
      return { name, description }
    }),
    paths,
    components: {
      schemas: { ...named, ...errorSchemas, GatewayError: GATEWAY_ERROR } as Components,
      responses,
      securitySchemes,
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>
