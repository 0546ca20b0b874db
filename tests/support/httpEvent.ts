import type { Context } from 'aws-lambda'
import { randomBytes, randomUUID } from 'node:crypto'
import type { HttpEvent } from '../../lib/http/types'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'

export interface HttpEventOverrides {
  /** The function's name in serverless.yml: the event goes to its route. */
  route?: string
  /** A route key as the gateway writes it, for a route serverless.yml does not declare. */
  routeKey?: string
  pathParameters?: Record<string, string>
  queryStringParameters?: Record<string, string>
  headers?: Record<string, string>
  body?: unknown
  /** Send `body` as is (for malformed JSON); otherwise it is serialised. */
  rawBody?: string
  /** The caller's address (`requestContext.http.sourceIp`); random unless given. */
  sourceIp?: string
}

function randomSourceIp(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3)
  return `10.${a}.${b}.${c}`
}

let declaredRouteKeys: Map<string, string> | undefined

/** The route key of a function of serverless.yml, read once per process. */
export function routeKeyOf(name: string): string {
  declaredRouteKeys ??= new Map(
    declaredFunctions().flatMap((fn) =>
      fn.route ? [[fn.name, `${fn.route.method} ${fn.route.path}`] as const] : [],
    ),
  )
  const routeKey = declaredRouteKeys.get(name)
  if (!routeKey) throw new Error(`serverless.yml declares no HTTP function ${name}`)
  return routeKey
}

/** An API Gateway HTTP API (payload 2.0) event, as the real integration sends it. */
export function httpEvent(overrides: HttpEventOverrides): HttpEvent {
  const routeKey = overrides.route === undefined ? overrides.routeKey : routeKeyOf(overrides.route)
  if (routeKey === undefined) throw new Error('an event needs a route or a route key')
  const [method = 'GET', path = '/'] = routeKey.split(' ')
  const rawPath = Object.entries(overrides.pathParameters ?? {}).reduce(
    (result, [name, value]) => result.replace(`{${name}}`, encodeURIComponent(value)),
    path,
  )
  const body =
    overrides.rawBody ?? (overrides.body === undefined ? undefined : JSON.stringify(overrides.body))
  const requestId = randomUUID()
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: new URLSearchParams(overrides.queryStringParameters).toString(),
    headers: {
      accept: '*/*',
      host: 'api.example.test',
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...overrides.headers,
    },
    queryStringParameters: overrides.queryStringParameters,
    pathParameters: overrides.pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.test',
      domainPrefix: 'api',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        // A client of its own per event, so per-IP limits never link unrelated tests.
        sourceIp: overrides.sourceIp ?? randomSourceIp(),
        userAgent: 'vitest',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  }
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:test',
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }
}

export interface EnvelopeResponse {
  status: number
  body: {
    ok: boolean
    result?: unknown
    error?: { code: number; message: string; details?: unknown }
  }
}

/** Calls a wrapped handler and parses its response. */
export async function invoke(
  handler: (event: HttpEvent, context: Context) => Promise<unknown>,
  event: HttpEvent,
): Promise<EnvelopeResponse> {
  const response = (await handler(event, lambdaContext())) as { statusCode: number; body: string }
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as EnvelopeResponse['body'],
  }
}
