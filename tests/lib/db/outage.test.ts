import '../../support/env'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePort } from '../../../lib/local/findFreePort'
import { type EnvelopeResponse, httpEvent, invoke } from '../../support/httpEvent'

type ListNetworksModule = typeof import('../../../functions/networks/listNetworks')
type DbClientModule = typeof import('../../../lib/db/client')

// Configuration is read once per module graph, so the endpoint is pointed at a closed port
// before the handler is first imported; vitest gives this file its own module graph.
const savedEndpoint = process.env.DYNAMODB_ENDPOINT
let closedEndpoint: string
let handler: ListNetworksModule['handler']
let db: DbClientModule['db']

beforeAll(async () => {
  closedEndpoint = `http://127.0.0.1:${await findFreePort()}`
  process.env.DYNAMODB_ENDPOINT = closedEndpoint
  ;({ handler } = await import('../../../functions/networks/listNetworks'))
  ;({ db } = await import('../../../lib/db/client'))
})

afterAll(() => {
  process.env.DYNAMODB_ENDPOINT = savedEndpoint
})

function expectUnavailable(response: EnvelopeResponse) {
  expect(response).toEqual({
    status: 503,
    body: { ok: false, error: { code: 503, message: expect.any(String) } },
  })
}

describe('a database outage', () => {
  it('answers 503 promptly when DynamoDB refuses connections', async () => {
    const startedAt = Date.now()

    const response = await invoke(handler, httpEvent({ routeKey: 'GET /api/v1/networks' }))

    expectUnavailable(response)
    expect(Date.now() - startedAt).toBeLessThan(5_000)
  })

  it('keeps SDK and socket text out of the error body', async () => {
    const response = await invoke(handler, httpEvent({ routeKey: 'GET /api/v1/networks' }))

    const text = JSON.stringify(response.body)
    for (const internal of ['ECONNREFUSED', 'connect', '127.0.0.1', closedEndpoint, 'stack']) {
      expect(text).not.toContain(internal)
    }
  })

  it('answers 503 when DynamoDB throttles past the SDK retries', async () => {
    // DynamoDB Local never throttles, so the fault is injected below the translating middleware.
    const client = db()
    let throttled = 0
    client.middlewareStack.add(
      () => async () => {
        throttled += 1
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
          name: 'ProvisionedThroughputExceededException',
          $metadata: { httpStatusCode: 400 },
        })
      },
      { step: 'build', name: 'injectThrottling' },
    )

    try {
      const response = await invoke(handler, httpEvent({ routeKey: 'GET /api/v1/networks' }))

      expectUnavailable(response)
      expect(throttled).toBe(1)
      expect(JSON.stringify(response.body)).not.toContain('ProvisionedThroughput')
    } finally {
      client.middlewareStack.remove('injectThrottling')
    }
  })
})
