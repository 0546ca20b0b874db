import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getFrom } from '../../support/loopbackClient'
import { findFreePort } from '../../../lib/local/findFreePort'
import { type GatewayFront, startGatewayFront } from '../../../lib/local/gatewayFront'
import { stopProcess, waitUntil } from '../../../lib/local/processes'

// A service of three functions under the real serverless offline (the version npm start runs),
// whose faults happen on demand: one never answers within its 1 s timeout, one throws.
const SERVICE_YML = `service: gateway-front-probe
frameworkVersion: '3'
plugins:
  - serverless-offline
provider:
  name: aws
  runtime: nodejs22.x
  stage: local
  region: us-east-1
  timeout: 1
  httpApi:
    payload: '2.0'
custom:
  serverless-offline:
    host: 127.0.0.1
    noPrependStageInUrl: true
    noAuth: true
functions:
  fine:
    handler: handler.fine
    events:
      - httpApi: { method: GET, path: /fine }
  hangs:
    handler: handler.hangs
    events:
      - httpApi: { method: GET, path: /hangs }
  throws:
    handler: handler.throws
    events:
      - httpApi: { method: GET, path: /throws }
  caller:
    handler: handler.caller
    events:
      - httpApi: { method: GET, path: /caller }
`

const HANDLERS = `exports.fine = async () => ({ statusCode: 200, body: JSON.stringify({ ok: true, result: {} }) })
exports.hangs = () => new Promise(() => {})
exports.throws = async () => { throw new Error('boom at ' + __filename) }
exports.caller = async (event) => ({ statusCode: 200, body: JSON.stringify({ sourceIp: event.requestContext.http.sourceIp }) })
`

const require = createRequire(import.meta.url)
let offline: ChildProcess | undefined
let front: GatewayFront | undefined
let offlineUrl = ''
let frontUrl = ''

beforeAll(async () => {
  const directory = resolve('.test-output', 'gateway-front', String(process.pid))
  mkdirSync(directory, { recursive: true })
  writeFileSync(join(directory, 'serverless.yml'), SERVICE_YML)
  writeFileSync(join(directory, 'handler.js'), HANDLERS)
  const [httpPort, lambdaPort] = await Promise.all([findFreePort(), findFreePort()])
  offline = spawn(
    process.execPath,
    [
      require.resolve('serverless/bin/serverless.js'),
      'offline',
      'start',
      '--httpPort',
      String(httpPort),
      '--lambdaPort',
      String(lambdaPort),
    ],
    {
      cwd: directory,
      env: { ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off' },
      stdio: 'ignore',
      detached: true,
    },
  )
  offlineUrl = `http://127.0.0.1:${httpPort}`
  await waitUntil(
    'the probe service under serverless offline',
    async (signal) => (await fetch(`${offlineUrl}/fine`, { signal })).status === 200,
    { timeoutMs: 120_000, child: offline, intervalMs: 250, probeTimeoutMs: 10_000 },
  )
  front = await startGatewayFront({ port: 0, upstreamPort: httpPort })
  frontUrl = front.url
})

afterAll(async () => {
  await front?.close()
  if (offline) await stopProcess(offline)
})

async function call(base: string, path: string) {
  const response = await fetch(`${base}${path}`)
  const body: unknown = await response.json()
  return { status: response.status, body }
}

describe('the gateway front of serverless offline', () => {
  it('answers a Lambda timeout as the HTTP API does: 503, its message, no stack trace', async () => {
    // What offline alone answers, which the front exists for.
    const bare = await call(offlineUrl, '/hangs')
    expect(bare.status).toBe(200)
    expect(bare.body).toMatchObject({ errorMessage: '[504] - Lambda timeout.' })

    expect(await call(frontUrl, '/hangs')).toEqual({
      status: 503,
      body: { message: 'Service Unavailable' },
    })
  })

  it('answers a function that throws as the HTTP API does: 500, its message, no stack trace', async () => {
    const bare = await call(offlineUrl, '/throws')
    expect(bare.status).toBe(200)
    expect(bare.body).toMatchObject({ errorType: 'Error', stackTrace: expect.any(Array) })

    const answer = await call(frontUrl, '/throws')
    expect(answer).toEqual({ status: 500, body: { message: 'Internal Server Error' } })
    expect(JSON.stringify(answer.body)).not.toContain('handler.js')
  })

  it("passes a function's own answer through unchanged", async () => {
    expect(await call(frontUrl, '/fine')).toEqual({ status: 200, body: { ok: true, result: {} } })
    const missing = await fetch(`${frontUrl}/nowhere`)
    expect(missing.status).toBe(404)
  })

  it("keeps each client's own source address, as API Gateway's sourceIp does (DECISIONS §9.6)", async () => {
    // Three loopback clients, asked in turn twice over the front's one keep-alive agent: each is
    // seen as itself every time, never as the front (127.0.0.1) or as the client before it.
    const clients = ['127.0.0.2', '127.0.0.3', '127.0.0.1']
    for (const round of [1, 2]) {
      for (const client of clients) {
        const answer = await getFrom(client, `${frontUrl}/caller`)
        expect({ round, client, ...answer }).toEqual({
          round,
          client,
          status: 200,
          body: { sourceIp: client },
        })
      }
    }
  })
})
