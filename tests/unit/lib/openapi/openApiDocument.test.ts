import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { readdirSync, readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler as getDocsAsset } from '../../../../functions/docs/getDocsAsset'
import { MAX_HOPS } from '../../../../lib/routing/paths/enumeratePaths'
import type { OpenApiDocument } from '../../../../lib/openapi/buildOpenApiDocument'
import { declaredFunctions } from '../../../../lib/openapi/declaredFunctions'
import { loadRoutes, OPENAPI_FILE, openApiDocument } from '../../../../lib/openapi/openApiDocument'
import { MAX_PATH_TOKENS } from '../../../../schemas/limits'
import type * as z from '../../../../schemas/zod'
import { httpEvent } from '../../../support/httpEvent'

interface Operation {
  operationId: string
  security: Array<Record<string, string[]>>
  parameters: Array<{ name: string; in: string; required: boolean; schema: unknown }>
  requestBody?: { content: Record<string, unknown> }
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>
}

let document: OpenApiDocument

function operation(method: string, path: string): Operation {
  const operations = document.paths[path] as Record<string, Operation> | undefined
  const found = operations?.[method]
  if (!found) throw new Error(`no ${method} ${path}`)
  return found
}

type Json = Record<string, unknown>

/** What a local `$ref` ('#/components/schemas/Trade') points at. */
function pointee(ref: string): Json {
  const [, , kind, name] = ref.split('/')
  const found = (document.components as unknown as Record<string, Record<string, Json>>)[kind ?? '']
  const node = found?.[name ?? '']
  if (!node) throw new Error(`nothing at ${ref}`)
  return node
}

const resolved = (node: Json): Json =>
  typeof node.$ref === 'string' ? resolved(pointee(node.$ref)) : node

/** The body schemas a route's response with `status` can carry (each branch of a oneOf). */
function bodiesOf(op: Operation, status: string): Json[] {
  const response = op.responses[status]
  if (!response) return []
  const schema = resolved(resolved(response).content as Json)
  const json = (schema['application/json'] as { schema: Json }).schema
  const branches = (json.oneOf as Json[] | undefined) ?? [json]
  return branches.map(resolved)
}

/** Every `error.code` a route can answer, from the enums of its error bodies. */
function errorCodes(op: Operation): number[] {
  return Object.keys(op.responses)
    .filter((status) => status !== '200')
    .flatMap((status) => bodiesOf(op, status))
    .flatMap((body) => {
      const error = (body.properties as Json | undefined)?.error as Json | undefined
      const code = (error?.properties as Json | undefined)?.code as { enum: number[] } | undefined
      return code?.enum ?? []
    })
    .sort((a, b) => a - b)
}

/** The sub-codes a route's 401 names, in its `code` enum. */
function unauthorizedCodes(op: Operation): unknown {
  return errorCodes({ ...op, responses: { 401: op.responses[401] ?? {} } })
}

beforeAll(async () => {
  document = await openApiDocument()
})

describe('the OpenAPI document', () => {
  it('is what schemas/openapi.json holds (run `npm run openapi` after changing a route)', () => {
    const committed: unknown = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'))

    expect(committed).toEqual(JSON.parse(JSON.stringify(document)))
  })

  it('has one operation for each HTTP route of serverless.yml, named after its function', () => {
    const routes = declaredFunctions().flatMap((fn) => (fn.route ? [{ ...fn.route, fn }] : []))
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    )

    expect(document.openapi).toBe('3.1.0')
    expect(operations).toHaveLength(routes.length)
    for (const { method, path, fn } of routes) {
      expect(operation(method.toLowerCase(), path).operationId).toBe(fn.name)
    }
  })

  it('wraps each result in the success envelope', () => {
    const schema = operation('get', '/api/v1/auth/nonce/{address}').responses[200]?.content?.[
      'application/json'
    ]?.schema

    expect(schema).toMatchObject({
      type: 'object',
      required: ['ok', 'result'],
      properties: { ok: { const: true }, result: { $ref: '#/components/schemas/SignInNonce' } },
    })
    expect(pointee('#/components/schemas/SignInNonce')).toMatchObject({
      properties: { nonce: { type: 'integer' }, message: { type: 'string' } },
    })
  })

  it('documents path, query and body as clients send them', () => {
    const quote = operation('get', '/api/v1/swap/quote/ethereum')
    const swap = operation('post', '/api/v1/swap/tokens/ethereum/{key}')

    expect(quote.parameters.map(({ name, required }) => [name, required])).toEqual([
      ['amount', true],
      ['address0', true],
      ['decimals0', true],
      ['address1', true],
      ['decimals1', true],
      ['slippageBps', false],
      ['recipient', false],
      ['type', false],
    ])
    expect(swap.parameters).toEqual([
      expect.objectContaining({ name: 'key', in: 'path', required: true }),
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    ])
    const body = swap.requestBody?.content['application/json'] as { schema: Json }
    expect(resolved(body.schema)).toMatchObject({
      required: ['amount', 'address0', 'decimals0', 'address1', 'decimals1'],
    })
  })

  it('names the token each route takes, and none on public routes', () => {
    expect(operation('get', '/api/v1/networks').security).toEqual([])
    expect(operation('delete', '/api/v1/auth/logout').security).toEqual([{ walletAccess: [] }])
    expect(operation('get', '/api/v1/auth/refresh').security).toEqual([{ walletRefresh: [] }])
    expect(operation('get', '/api/v1/project/{projectId}').security).toEqual([
      { accountAccess: [] },
    ])
    expect(operation('get', '/api/v1/account/refresh').security).toEqual([{ accountRefresh: [] }])
    expect(Object.keys(document.components.securitySchemes)).toEqual([
      'walletAccess',
      'walletRefresh',
      'accountAccess',
      'accountRefresh',
    ])
  })

  it('lists the 401 sub-codes each route can answer, in the error envelope', () => {
    expect(operation('get', '/api/v1/networks').responses[401]).toBeUndefined()
    expect(unauthorizedCodes(operation('post', '/api/v1/auth/login'))).toEqual([401004])
    expect(unauthorizedCodes(operation('get', '/api/v1/trades'))).toEqual([401001, 401002, 401003])
    expect(unauthorizedCodes(operation('post', '/api/v1/transfer/tokens/altchain/{key}'))).toEqual([
      401001, 401002, 401003, 401004,
    ])
    expect(document.components.schemas.Error401Token).toMatchObject({
      required: ['ok', 'error'],
      properties: {
        ok: { const: false },
        error: {
          required: ['code', 'message'],
          properties: { code: { type: 'integer', enum: [401001, 401002, 401003] } },
        },
      },
    })
  })

  it('lists the other errors each route can answer', () => {
    const statuses = (method: string, path: string) =>
      Object.keys(operation(method, path).responses).filter((status) => status !== '200')

    // 429 everywhere: the stage throttle of the gateway applies to every route.
    expect(statuses('get', '/api/v1/wallet/mnemonic')).toEqual(['429', '500'])
    expect(statuses('post', '/api/v1/account/register')).toEqual([
      '400',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ])
    // A quote spends its client's RPC budget (DECISIONS §9.4): a table write, so 503 too.
    expect(statuses('get', '/api/v1/swap/quote/altchain')).toEqual([
      '400',
      '422',
      '429',
      '500',
      '502',
      '503',
    ])
    expect(operation('get', '/api/v1/swap/quote/altchain').responses[429]).toEqual({
      $ref: '#/components/responses/TooManyRequests',
    })
    expect(operation('post', '/api/v1/account/login').responses[429]).toEqual({
      $ref: '#/components/responses/TooManyRequests',
    })
  })

  it('reads a doc file beside each handler, and no doc file without a declared function', async () => {
    const routes = await loadRoutes()
    const docFiles = readdirSync('functions', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.doc.ts'))
      .map((file) => `functions/${file}`)
    // A network operation's file is each network's function's: one doc file for them all.
    const httpEntries = [
      ...new Set(declaredFunctions().flatMap((fn) => (fn.route ? [fn.entry] : []))),
    ]

    expect(routes.map((route) => route.name)).toEqual(
      declaredFunctions().flatMap((fn) => (fn.route ? [fn.name] : [])),
    )
    expect(docFiles.sort()).toEqual(
      httpEntries.map((entry) => entry.replace(/\.ts$/, '.doc.ts')).sort(),
    )
  })

  it('gives every route examples of its inputs and result that its own schemas accept', async () => {
    const routes = (await loadRoutes()).flatMap((route) => ('definition' in route ? [route] : []))

    // Every route of serverless.yml with a JSON answer: the docs routes aside, each has one.
    expect(routes).toHaveLength(declaredFunctions().filter((fn) => fn.route).length - 3)
    for (const route of routes) {
      const { example } = route.doc
      const schemas = route.definition as unknown as Partial<
        Record<'params' | 'query' | 'body' | 'result', z.ZodMiniType>
      >
      const accepts = (part: 'params' | 'query' | 'body', value: unknown) => ({
        route: route.name,
        part,
        issues: schemas[part]?.safeParse(value).error?.issues ?? [],
      })
      for (const part of ['params', 'query', 'body'] as const) {
        expect({ route: route.name, part, given: example[part] !== undefined }).toEqual({
          route: route.name,
          part,
          given: schemas[part] !== undefined,
        })
      }
      // The query string carries every value as text, integers as digits.
      const query = Object.fromEntries(
        Object.entries(example.query ?? {}).map(([name, value]) => [name, String(value)]),
      )
      if (schemas.params) expect(accepts('params', example.params).issues).toEqual([])
      if (schemas.query) expect(accepts('query', query).issues).toEqual([])
      if (schemas.body) expect(accepts('body', example.body).issues).toEqual([])
      // A result example is what the route answers: its schema leaves it as it is.
      expect(schemas.result?.parse(example.result)).toEqual(example.result)
    }
  })

  it('shows each example in the document: parameters, body and the result envelope', () => {
    const quote = operation('get', '/api/v1/swap/quote/ethereum')
    const login = operation('post', '/api/v1/auth/login')

    for (const parameter of quote.parameters) expect(parameter).toHaveProperty('example')
    expect(quote.parameters.find((p) => p.name === 'decimals1')).toMatchObject({ example: 6 })
    expect(login.requestBody?.content['application/json']).toHaveProperty('example.nonce')
    expect(login.responses[200]?.content?.['application/json']).toMatchObject({
      example: { ok: true, result: { access: expect.any(String), refresh: expect.any(String) } },
    })
  })

  it('bounds every string and array of a request, and documents each checked format', () => {
    const strings: Array<{ at: string; schema: Record<string, unknown> }> = []
    const visit = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return
      const schema = node as Record<string, unknown>
      // A named body is visited where a route uses it.
      if (typeof schema.$ref === 'string') return visit(pointee(schema.$ref), `${at}/$ref`)
      if (schema.type === 'string' || schema.type === 'array') strings.push({ at, schema })
      for (const [key, child] of Object.entries(schema)) visit(child, `${at}/${key}`)
    }
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        const op = operation(method, path)
        visit(op.parameters, `${method} ${path} parameters`)
        visit(op.requestBody, `${method} ${path} body`)
      }
    }
    const unbounded = strings.filter(({ schema }) =>
      schema.type === 'array'
        ? schema.maxItems === undefined
        : schema.maxLength === undefined && schema.enum === undefined,
    )
    const free = strings.filter(
      ({ schema }) =>
        schema.type === 'string' &&
        [schema.pattern, schema.format, schema.enum, schema.const].every((v) => v === undefined),
    )

    expect(strings.length).toBeGreaterThan(60)
    expect(unbounded.map(({ at }) => at)).toEqual([])
    // A password may hold any character; a device token is opaque, and one that is not valid
    // for the name is ignored rather than refused (DECISIONS §10.4).
    expect(free.map(({ at }) => at.split(' ')[1])).toEqual([
      '/api/v1/account/register',
      '/api/v1/account/login',
      '/api/v1/account/login',
    ])
    expect(free.at(-1)?.at).toMatch(/device$/)
  })

  it('bounds a route at the hops the router searches', () => {
    expect(MAX_PATH_TOKENS).toBe(MAX_HOPS + 1)
  })

  it('lists exactly the files the docs asset route serves', async () => {
    const file = operation('get', '/api/docs/assets/{file}').parameters[0]?.schema as {
      enum: string[]
    }
    const statusOf = async (name: string) => {
      const response = (await getDocsAsset(
        httpEvent({
          route: 'getDocsAsset',
          pathParameters: { file: name },
        }),
      )) as { statusCode: number }
      return response.statusCode
    }

    for (const name of file.enum) expect(await statusOf(name)).toBe(200)
    expect(await statusOf('index.html')).toBe(404)
  })

  it('names its servers and documents what the gateway answers itself', () => {
    expect(document.servers.map((server) => server.url)).toEqual([
      '/',
      'https://{apiId}.execute-api.{region}.amazonaws.com',
    ])
    const { TooManyRequests, NotFound, PayloadTooLarge } = document.components.responses as Record<
      string,
      {
        headers?: Record<string, unknown>
        content: Record<string, { schema: { oneOf?: unknown[] } }>
      }
    >
    expect(TooManyRequests?.headers).toHaveProperty('Retry-After')
    for (const response of [TooManyRequests, PayloadTooLarge]) {
      expect(response?.content['application/json']?.schema.oneOf).toEqual([
        { $ref: expect.stringMatching(/^#\/components\/schemas\/Error4\d\d$/) },
        { $ref: '#/components/schemas/GatewayError' },
      ])
    }
    // A listed route is never the gateway's "no such route".
    expect(NotFound?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error404',
    })
  })

  it('answers the gateway body alone where the service never gives that status', () => {
    const gatewayOnly = (method: string, path: string, status: string) =>
      bodiesOf(operation(method, path), status).map((body) => Object.keys(body.properties as Json))

    // Only the stage throttle limits the trade list; sign-in has budgets of its own.
    expect(gatewayOnly('get', '/api/v1/trades', '429')).toEqual([['message']])
    expect(gatewayOnly('post', '/api/v1/auth/login', '429')).toEqual([['ok', 'error'], ['message']])
    expect(gatewayOnly('get', '/api/docs/openapi.json', '500')).toEqual([['message']])
    expect(gatewayOnly('get', '/api/v1/trades', '500')).toEqual([['ok', 'error'], ['message']])
  })

  it('enumerates the error codes of each route', () => {
    expect(errorCodes(operation('get', '/api/v1/wallet/mnemonic'))).toEqual([500])
    // A pending trade's lookup charges its client's RPC budget (lib/http/rpcBudget.ts): 429.
    expect(errorCodes(operation('get', '/api/v1/trade/id/{tradeId}'))).toEqual([
      400, 404, 429, 500, 503, 401001, 401002, 401003,
    ])
    expect(errorCodes(operation('post', '/api/v1/auth/login'))).toEqual([
      400, 413, 415, 429, 500, 502, 503, 401004,
    ])
    // Each error body is its own named schema, its code a single value (a 401 its sub-codes).
    const { Error404, Error500 } = document.components.schemas as Record<string, Json>
    expect(Error404).toMatchObject({
      properties: { error: { properties: { code: { enum: [404] } } } },
    })
    expect(Error500).toMatchObject({
      properties: { error: { required: ['code', 'message', 'requestId'] } },
    })
  })

  it('names every body and result a component schema, each with an example it accepts', () => {
    const schemas = document.components.schemas as Record<string, Json & { examples?: unknown[] }>
    const refOf = (schema: unknown) => (schema as { $ref?: string }).$ref
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'doc', components: document.components }, 'doc')

    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        const op = operation(method, path)
        const answer = op.responses[200]?.content?.['application/json']?.schema as
          { properties?: { result?: unknown } } | undefined
        if (!path.startsWith('/api/v1/')) continue
        expect({ path, result: refOf(answer?.properties?.result) }).toEqual({
          path,
          result: expect.stringMatching(/^#\/components\/schemas\/[A-Z]\w+$/),
        })
        const body = op.requestBody?.content['application/json'] as { schema: unknown } | undefined
        if (body)
          expect({ path, body: refOf(body.schema) }).toEqual({ path, body: expect.any(String) })
      }
    }
    for (const [name, schema] of Object.entries(schemas)) {
      expect({ name, examples: schema.examples?.length }).toEqual({ name, examples: 1 })
      const validate = ajv.compile({ $ref: `doc#/components/schemas/${name}` })
      expect({
        name,
        valid: validate(schema.examples?.[0]),
        errors: validate.errors ?? null,
      }).toEqual({
        name,
        valid: true,
        errors: null,
      })
    }
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'Quote',
        'Trade',
        'TradeListItem',
        'Token',
        'Project',
        'DailyPriceHistory',
        'Session',
        'GatewayError',
      ]),
    )
  })

  it('puts an exact decimal string beside every number that carries a token amount or supply', () => {
    const schemas = document.components.schemas as Record<
      string,
      { properties: Record<string, Json> }
    >
    const twins: Array<[string, string, string]> = [
      ['TradeListItem', 'amount', 'amountExact'],
      ['Trade', 'amount', 'amountExact'],
      ['NetworkBalance', 'balance', 'balanceExact'],
      ['Project', 'total_supply', 'total_supply_exact'],
      ['Project', 'circulating_supply', 'circulating_supply_exact'],
    ]

    for (const [name, number, exact] of twins) {
      const { properties, required } = schemas[name] as unknown as {
        properties: Record<string, Json>
        required: string[]
      }
      expect({ name, number: properties[number]?.type }).toEqual({ name, number: 'number' })
      expect(properties[exact]).toMatchObject({
        type: 'string',
        pattern: '^\\d{1,78}(\\.\\d{1,36})?$',
      })
      expect(required).toEqual(expect.arrayContaining([number, exact]))
    }
  })

  it('types integer query values as integers and closes the sort and direction sets', () => {
    const parameters = Object.fromEntries(
      operation('get', '/api/v1/trades').parameters.map((parameter) => [parameter.name, parameter]),
    )

    expect(parameters.limit?.schema).toEqual({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 100,
    })
    expect(parameters.offset?.schema).toEqual({
      type: 'integer',
      format: 'int64',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    })
    expect(parameters.direction?.schema).toMatchObject({ enum: ['ASC', 'DESC', 'asc', 'desc'] })
    expect(parameters.sort?.schema).toMatchObject({ enum: ['createdAt'] })
    const quote = Object.fromEntries(
      operation('get', '/api/v1/swap/quote/altchain').parameters.map((p) => [p.name, p]),
    ) as Record<string, { schema: { type?: string } } | undefined>
    for (const name of ['decimals0', 'decimals1', 'slippageBps']) {
      expect(quote[name]?.schema.type).toBe('integer')
    }
  })
})
