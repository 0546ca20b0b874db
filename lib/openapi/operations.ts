import * as z from 'zod/mini'
import type { DocumentedRoute, RouteDefinition, StaticRoute } from './documentedRoute'
import {
  GATEWAY_ONLY,
  responseRef,
  UNAUTHORIZED_SCHEMAS,
  type UnauthorizedCode,
  unauthorizedName,
} from './errorComponents'
import { ERROR_RESPONSES, type ErrorStatus } from './errorResponses'
import { type Components, jsonContent, jsonSchema } from './jsonSchemas'

export type Operation = Record<string, unknown>

// The success envelope of DECISIONS §1, around each route's own result schema.
const successEnvelope = (result: z.core.$ZodType) => z.object({ ok: z.literal(true), result })

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A retry with the same key answers the first `txId` (and `txIds`) instead of sending again.',
  // lib/send/idempotent.ts: 1 to 255 visible ASCII characters.
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
  example: '7f9c2d4e-retry-1',
}

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

/** The error statuses a route answers besides its 401s. */
function errorStatusesOf({ definition, access, doc: notes }: DocumentedRoute): Set<ErrorStatus> {
  const { params, query, body } = definition
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
  return statuses
}

/** A route's responses: its result (200), its 401, and its errors by reference. */
function responsesOf(route: DocumentedRoute, components: Components) {
  const { definition, doc: notes } = route
  const statuses = errorStatusesOf(route)
  const unauthorized: UnauthorizedCode[] = []
  if (definition.auth !== 'none') unauthorized.push(401001, 401002, 401003)
  if (notes.credentials) unauthorized.push(401004)
  // The service's own 429 (a per-client budget, a sign-in lockout) or only the gateway's throttle.
  const limited =
    statuses.has(429) &&
    (notes.errors.includes(429) || definition.clientLimit || definition.rpcBudget)

  const responses: Record<string, unknown> = {
    200: {
      description: 'OK',
      content: jsonContent(jsonSchema(successEnvelope(definition.result), 'output', components), {
        ok: true,
        result: notes.example.result,
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
  return responses
}

/** The operation of a route answering the JSON envelope, its schemas moved into `components`. */
export function operationOf(route: DocumentedRoute, components: Components): Operation {
  const { name, area, definition, doc: notes } = route
  const { auth, params, query, body } = definition
  const { example } = notes
  // The result's schemas first, then the input's: the order component schemas are met in.
  const responses = responsesOf(route, components)
  const parameters = [
    ...parametersOf(params, 'path', components, example.params),
    ...parametersOf(query, 'query', components, example.query),
    ...(notes.idempotencyKey ? [IDEMPOTENCY_KEY] : []),
  ]
  const requestBody = body && {
    required: true,
    content: jsonContent(jsonSchema(body, 'input', components), example.body),
  }
  return {
    operationId: name,
    summary: summaryOf(name),
    description: notes.description,
    tags: [area],
    security: securityOf(auth),
    parameters,
    ...(requestBody && { requestBody }),
    responses,
  }
}

/** The operation of a route answering something other than the JSON envelope. */
export function staticOperationOf(route: StaticRoute): Operation {
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
