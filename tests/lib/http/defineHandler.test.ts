import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as z from '../../../schemas/zod'
import { defineHandler } from '../../../lib/http/defineHandler'
import {
  type AppError,
  BadRequest,
  ChainUnavailable,
  Conflict,
  NotFound,
  TooManyRequests,
  Unprocessable,
} from '../../../lib/errors'
import { httpEvent, invoke, lambdaContext } from '../../support/httpEvent'

const ITEM_ROUTE = 'PUT /api/v1/test/items/{itemId}'

const itemParamsSchema = z.strictObject({ itemId: z.string().check(z.regex(/^[a-z0-9-]+$/)) })
const itemQuerySchema = z.strictObject({
  limit: z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(10)))),
})
const itemBodySchema = z.strictObject({
  name: z.string().check(z.minLength(1)),
  quantity: z.int().check(z.positive()),
})
const itemResultSchema = z.object({
  itemId: z.string(),
  name: z.string(),
  quantity: z.number(),
  limit: z.number(),
})

// A route with every input part, whose core returns more than the result schema allows.
const putItem = defineHandler({
  auth: 'none',
  params: itemParamsSchema,
  query: itemQuerySchema,
  body: itemBodySchema,
  result: itemResultSchema,
  run: ({ params, query, body }) => {
    const stored = { ...params, ...body, limit: query.limit ?? 5, internalNote: 'staff only' }
    return stored
  },
})

function failingRoute(error: Error) {
  return defineHandler({
    auth: 'none',
    result: z.object({}),
    run: () => {
      throw error
    },
  })
}

function itemEvent(overrides: { itemId?: string; headers?: Record<string, string> } = {}) {
  return httpEvent({
    routeKey: ITEM_ROUTE,
    pathParameters: { itemId: overrides.itemId ?? `item-${randomUUID()}` },
    queryStringParameters: { limit: '3' },
    body: { name: 'lamp', quantity: 2 },
    ...(overrides.headers && { headers: overrides.headers }),
  })
}

describe('defineHandler', () => {
  describe('success', () => {
    it('answers 200 with the core result in the envelope, unknown fields stripped', async () => {
      const itemId = `item-${randomUUID()}`

      const response = await invoke(putItem, itemEvent({ itemId }))

      expect(response).toEqual({
        status: 200,
        body: { ok: true, result: { itemId, name: 'lamp', quantity: 2, limit: 3 } },
      })
    })

    it('hands the core coerced and defaulted input', async () => {
      const itemId = `item-${randomUUID()}`
      const event = httpEvent({
        routeKey: ITEM_ROUTE,
        pathParameters: { itemId },
        body: { name: 'desk', quantity: 1 },
      })

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 200,
        body: { ok: true, result: { itemId, name: 'desk', quantity: 1, limit: 5 } },
      })
    })

    it('answers with a JSON content type', async () => {
      const response = (await putItem(itemEvent(), lambdaContext())) as {
        headers: Record<string, string>
      }

      expect(response.headers).toEqual({ 'content-type': 'application/json; charset=utf-8' })
    })

    it('accepts a JSON content type with parameters and any header casing', async () => {
      const itemId = `item-${randomUUID()}`
      const event = itemEvent({ itemId })
      delete event.headers['content-type']
      event.headers['Content-Type'] = 'application/json; charset=utf-8'

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 200,
        body: { ok: true, result: { itemId, name: 'lamp', quantity: 2, limit: 3 } },
      })
    })
  })

  describe('request body', () => {
    it('answers 400 when the body is not valid JSON', async () => {
      const event = httpEvent({
        routeKey: ITEM_ROUTE,
        pathParameters: { itemId: `item-${randomUUID()}` },
        rawBody: '{"name": "lamp", "quantity": ',
      })

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 400,
        body: { ok: false, error: { code: 400, message: expect.any(String) } },
      })
    })

    it('answers 400 when a body route gets no body', async () => {
      const event = httpEvent({
        routeKey: ITEM_ROUTE,
        pathParameters: { itemId: `item-${randomUUID()}` },
        headers: { 'content-type': 'application/json' },
      })

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 400,
        body: { ok: false, error: { code: 400, message: expect.any(String) } },
      })
    })

    it('answers 415 when the content type is not JSON', async () => {
      const response = await invoke(
        putItem,
        itemEvent({ headers: { 'content-type': 'text/plain' } }),
      )

      expect(response).toEqual({
        status: 415,
        body: { ok: false, error: { code: 415, message: expect.any(String) } },
      })
    })

    it('answers 415 when the content type is missing', async () => {
      const event = itemEvent()
      delete event.headers['content-type']

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 415,
        body: { ok: false, error: { code: 415, message: expect.any(String) } },
      })
    })
  })

  describe('validation', () => {
    it('answers 400 with every problem of params, query and body at once', async () => {
      const event = httpEvent({
        routeKey: ITEM_ROUTE,
        pathParameters: { itemId: 'Not An Id!' },
        queryStringParameters: { limit: '0', colour: 'red' },
        body: { name: '', quantity: 'two', extra: true },
      })

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: expect.any(String),
            details: [
              { path: 'params.itemId', message: expect.any(String) },
              { path: 'query.limit', message: expect.stringContaining('>=1') },
              { path: 'query', message: expect.stringContaining('colour') },
              { path: 'body.name', message: expect.any(String) },
              { path: 'body.quantity', message: expect.stringContaining('number') },
              { path: 'body', message: expect.stringContaining('extra') },
            ],
          },
        },
      })
    })

    it('answers 400 naming a missing body field', async () => {
      const event = httpEvent({
        routeKey: ITEM_ROUTE,
        pathParameters: { itemId: `item-${randomUUID()}` },
        body: { name: 'lamp' },
      })

      const response = await invoke(putItem, event)

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: expect.any(String),
            details: [{ path: 'body.quantity', message: expect.any(String) }],
          },
        },
      })
    })
  })

  describe('errors from the core', () => {
    it.each<[string, AppError, number]>([
      ['NotFound', new NotFound('no such item'), 404],
      ['Conflict', new Conflict('that name is taken'), 409],
      ['Unprocessable', new Unprocessable('no liquidity for this pair'), 422],
      ['TooManyRequests', new TooManyRequests('too many failed logins', 60), 429],
      ['ChainUnavailable', new ChainUnavailable('ethereum'), 502],
    ])('answers a %s with its own status and code', async (_name, error, status) => {
      const route = failingRoute(error)

      const response = await invoke(route, httpEvent({ routeKey: 'GET /api/v1/test/failure' }))

      expect(response).toEqual({
        status,
        body: { ok: false, error: { code: status, message: error.message } },
      })
    })

    it('answers a BadRequest with its details', async () => {
      const details = [{ path: 'body.mnemonic', message: 'word 3 is not in the word list' }]
      const route = failingRoute(new BadRequest('the mnemonic is not valid', details))

      const response = await invoke(route, httpEvent({ routeKey: 'GET /api/v1/test/failure' }))

      expect(response).toEqual({
        status: 400,
        body: { ok: false, error: { code: 400, message: 'the mnemonic is not valid', details } },
      })
    })

    it('answers 500 with the request id and no internals for an unexpected error', async () => {
      const route = failingRoute(new Error('secret internals at /x/y'))
      const event = httpEvent({ routeKey: 'GET /api/v1/test/failure' })

      const response = await invoke(route, event)

      expect(response).toEqual({
        status: 500,
        body: {
          ok: false,
          error: {
            code: 500,
            message: expect.any(String),
            requestId: event.requestContext.requestId,
          },
        },
      })
      const text = JSON.stringify(response.body)
      expect(text).not.toContain('secret internals')
      expect(text).not.toContain('/x/y')
      expect(text).not.toContain('stack')
    })

    it('answers 500 without details when the core breaks its result schema', async () => {
      const route = defineHandler({
        auth: 'none',
        result: z.object({ count: z.number() }),
        run: () => ({ count: 'seven' }) as unknown as { count: number },
      })
      const event = httpEvent({ routeKey: 'GET /api/v1/test/count' })

      const response = await invoke(route, event)

      expect(response).toEqual({
        status: 500,
        body: {
          ok: false,
          error: {
            code: 500,
            message: expect.any(String),
            requestId: event.requestContext.requestId,
          },
        },
      })
    })
  })
})
