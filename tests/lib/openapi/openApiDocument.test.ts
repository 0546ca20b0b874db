import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import type * as z from '../../../schemas/zod'
import type { OpenApiDocument } from '../../../lib/openapi/buildOpenApiDocument'
import { loadRoutes, OPENAPI_FILE, openApiDocument } from '../../../lib/openapi/openApiDocument'
import { routeExamples } from '../../../lib/openapi/routeExamples'
import { declaredFunctions } from '../../../lib/openapi/declaredFunctions'

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

/** The sub-codes a route's 401 names, in its narrowed `code` enum. */
function unauthorizedCodes(op: Operation): unknown {
  const schema = op.responses[401]?.content?.['application/json']?.schema as {
    allOf: [unknown, { properties: { error: { properties: { code: { enum: number[] } } } } }]
  }
  return schema.allOf[1].properties.error.properties.code.enum
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
      properties: {
        ok: { const: true },
        result: { properties: { nonce: { type: 'integer' }, message: { type: 'string' } } },
      },
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
    ])
    expect(swap.parameters).toEqual([
      expect.objectContaining({ name: 'key', in: 'path', required: true }),
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    ])
    expect(swap.requestBody?.content['application/json']).toMatchObject({
      schema: { required: ['amount', 'address0', 'decimals0', 'address1', 'decimals1'] },
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
    expect(document.components.schemas.ErrorEnvelope).toMatchObject({
      required: ['ok', 'error'],
      properties: { ok: { const: false }, error: { required: ['code', 'message'] } },
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
    expect(statuses('get', '/api/v1/swap/quote/altchain')).toEqual([
      '400',
      '422',
      '429',
      '500',
      '502',
    ])
    expect(operation('post', '/api/v1/account/login').responses[429]).toEqual({
      $ref: '#/components/responses/TooManyRequests',
    })
  })

  it('gives the client-signing routes examples that their own schemas accept', async () => {
    const examples = await routeExamples()
    const routes = (await loadRoutes()).filter((route) => route.name in examples)

    expect(routes.map((route) => route.name).sort()).toEqual(Object.keys(examples).sort())
    for (const route of routes) {
      if (!('definition' in route)) throw new Error(`${route.name} is static`)
      const { body, result } = examples[route.name] ?? {}
      const schemas = route.definition as unknown as Record<'body' | 'result', z.ZodMiniType>
      expect({ route: route.name, body: schemas.body.safeParse(body).success }).toEqual({
        route: route.name,
        body: true,
      })
      expect(schemas.result.parse(result)).toEqual(result)
      const content = operation('post', route.path).requestBody?.content['application/json']
      expect(content).toMatchObject({ example: body })
    }
  })

  it('names its servers and documents what the gateway answers itself', () => {
    expect(document.servers.map((server) => server.url)).toEqual([
      'http://localhost:3000',
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
    for (const response of [TooManyRequests, NotFound, PayloadTooLarge]) {
      expect(response?.content['application/json']?.schema.oneOf).toHaveLength(2)
    }
  })

  it('types integer query values as integers and closes the direction set', () => {
    const parameters = Object.fromEntries(
      operation('get', '/api/v1/trades').parameters.map((parameter) => [parameter.name, parameter]),
    )

    expect(parameters.limit?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 })
    expect(parameters.offset?.schema).toEqual({ type: 'integer', minimum: 0 })
    expect(parameters.direction?.schema).toMatchObject({ enum: ['ASC', 'DESC', 'asc', 'desc'] })
    const quote = Object.fromEntries(
      operation('get', '/api/v1/swap/quote/altchain').parameters.map((p) => [p.name, p]),
    ) as Record<string, { schema: { type?: string } } | undefined>
    for (const name of ['decimals0', 'decimals1', 'slippageBps']) {
      expect(quote[name]?.schema.type).toBe('integer')
    }
  })
})
