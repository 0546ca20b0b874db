import '../../support/env'
import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadCoreConfig } from '../../../lib/config'
import { findFreePort } from '../../../lib/local/findFreePort'
import { countDynamoAttempts, dynamoTimeouts } from '../../support/faultEngines'
import { type EnvelopeResponse, httpEvent, invoke } from '../../support/httpEvent'

type ListNetworksModule = typeof import('../../../functions/networks/listNetworks')
type DbClientModule = typeof import('../../../lib/db/client')

// An outage's answer time is bounded by the SDK's attempts (DYNAMODB_MAX_ATTEMPTS), each ended by
// a refusal or the request timeout; the tests count the attempts, never the time, which a loaded
// machine stretches.
const { dynamoMaxAttempts } = loadCoreConfig()

const savedEndpoint = process.env.DYNAMODB_ENDPOINT

// Configuration and the SDK client are built once per module graph, so the endpoint is set before
// a fresh import of the handler; resetting the registry gives each outage its own client.
async function loadAgainst(endpoint: string) {
  process.env.DYNAMODB_ENDPOINT = endpoint
  vi.resetModules()
  const { handler }: ListNetworksModule = await import('../../../functions/networks/listNetworks')
  const { db }: DbClientModule = await import('../../../lib/db/client')
  return { handler, db }
}

afterAll(() => {
  process.env.DYNAMODB_ENDPOINT = savedEndpoint
})

function listNetworks(handler: ListNetworksModule['handler']) {
  return invoke(handler, httpEvent({ route: 'listNetworks' }))
}

function expectUnavailable(response: EnvelopeResponse) {
  expect(response).toEqual({
    status: 503,
    body: { ok: false, error: { code: 503, message: expect.any(String) } },
  })
}

describe('a database that refuses connections', () => {
  let endpoint: string
  let handler: ListNetworksModule['handler']
  let db: DbClientModule['db']

  beforeAll(async () => {
    endpoint = `http://127.0.0.1:${await findFreePort()}`
    ;({ handler, db } = await loadAgainst(endpoint))
  })

  it('answers 503 after the configured attempts, each refused', async () => {
    const attempts = countDynamoAttempts(db())

    try {
      const response = await listNetworks(handler)

      expectUnavailable(response)
      expect(await attempts.take()).toEqual([
        { attempts: dynamoMaxAttempts, failures: Array(dynamoMaxAttempts).fill('ECONNREFUSED') },
      ])
    } finally {
      attempts.stop()
    }
  })

  it('keeps SDK and socket text out of the error body', async () => {
    const response = await listNetworks(handler)

    const text = JSON.stringify(response.body)
    for (const internal of ['ECONNREFUSED', 'connect', '127.0.0.1', endpoint, 'stack']) {
      expect(text).not.toContain(internal)
    }
  })

  it('answers 503 when DynamoDB throttles past the SDK retries', async () => {
    // DynamoDB Local never throttles, so the fault is injected below the translating middleware;
    // it throws before any connection, so the 503 comes from the throttling error alone.
    const client = db()
    let throttled = 0
    client.middlewareStack.add(
      () => () => {
        throttled += 1
        return Promise.reject(
          Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
            name: 'ProvisionedThroughputExceededException',
            $metadata: { httpStatusCode: 400 },
          }),
        )
      },
      { step: 'build', name: 'injectThrottling' },
    )

    try {
      const response = await listNetworks(handler)

      expectUnavailable(response)
      expect(throttled).toBe(1)
      expect(JSON.stringify(response.body)).not.toContain('ProvisionedThroughput')
    } finally {
      client.middlewareStack.remove('injectThrottling')
    }
  })
})

describe('a database that accepts connections but never answers', () => {
  let server: Server
  const sockets = new Set<Socket>()
  let connections = 0
  let handler: ListNetworksModule['handler']
  let db: DbClientModule['db']

  beforeAll(async () => {
    // Holds every connection open in silence, like a hung node behind a load balancer.
    server = createServer((socket) => {
      connections += 1
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve))
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('no TCP address')
    ;({ handler, db } = await loadAgainst(`http://127.0.0.1:${address.port}`))
  })

  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  it('answers 503 after the configured attempts, each ended by the request timeout', async () => {
    const attempts = countDynamoAttempts(db())

    try {
      const response = await listNetworks(handler)

      expectUnavailable(response)
      expect(await attempts.take()).toEqual([
        { attempts: dynamoMaxAttempts, failures: Array(dynamoMaxAttempts).fill('TimeoutError') },
      ])
      // Each attempt reached the server and was dropped at its timeout: the next one reconnects.
      expect(connections).toBe(dynamoMaxAttempts)
      expect(dynamoTimeouts(db())).toMatchObject({
        requestTimeout: loadCoreConfig().dynamoRequestTimeoutMs,
        throwOnRequestTimeout: true,
      })
    } finally {
      attempts.stop()
    }
  }, 15_000)
})
