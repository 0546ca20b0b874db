import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TTL_ATTRIBUTE, tableDefinition } from '../../lib/db/tableSchema'
import { NETWORK_ENTRIES } from '../../lib/networks'
import { PEAK_REQUESTS_PER_SECOND, THROTTLE_HEADROOM } from '../../lib/serverless/capacity'
import { useProdTemplate } from '../support/packagedTemplate'

// The deployed stage as `serverless package` writes it (stage prod, no credentials): the table, the
// routes and their functions, the schedules, the access log, throttles, CORS, reserved concurrency
// and the settings each function carries.

const prod = useProdTemplate()

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('serverless package (stage prod, no credentials)', () => {
  it('declares the single table as the local stack creates it', () => {
    const [table] = prod.ofType('AWS::DynamoDB::Table')
    const expected = tableDefinition('wallet-backend-prod')

    expect(prod.ofType('AWS::DynamoDB::Table')).toHaveLength(1)
    expect(table?.Properties).toMatchObject({
      TableName: 'wallet-backend-prod',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: expected.KeySchema,
      AttributeDefinitions: expected.AttributeDefinitions,
      GlobalSecondaryIndexes: expected.GlobalSecondaryIndexes,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    })
  })

  it('declares one function per route, each in its own file under functions/', () => {
    const routes = Object.values(prod.functions).flatMap((fn) =>
      fn.events.flatMap((event) =>
        event.httpApi ? [`${event.httpApi.method} ${event.httpApi.path}`] : [],
      ),
    )
    const httpFunctions = Object.values(prod.functions).filter((fn) =>
      fn.events.some((e) => e.httpApi),
    )
    const routeKeys = prod
      .ofHttpApi('AWS::ApiGatewayV2::Route')
      .map((route) => route.Properties.RouteKey)

    expect(httpFunctions.every((fn) => fn.events.filter((e) => e.httpApi).length === 1)).toBe(true)
    expect(new Set(routes).size).toBe(routes.length)
    // The API under /api/v1, its reference under /api/docs.
    expect(routes.every((route) => / \/api\/(v1\/|docs)/.test(route))).toBe(true)
    expect([...routeKeys].sort()).toEqual([...routes].sort())
    expect(prod.ofType('AWS::Lambda::Function')).toHaveLength(Object.keys(prod.functions).length)
    // Every handler file is declared, and every declared handler has its own file; beside it,
    // only its route's doc (lib/openapi/routeDoc.ts), which no bundle imports. A network
    // operation's file is the handler of its function on each network (told which by NETWORK).
    const handlerFiles = new Set(
      Object.values(prod.functions).map((fn) => fn.handler.replace(/\.handler$/, '.ts')),
    )
    const files = filesUnder('functions').map((file) => relative('.', file))
    expect([...handlerFiles].sort()).toEqual(
      files.filter((file) => !file.endsWith('.doc.ts')).sort(),
    )
    expect(prod.functions.quoteEthereum?.handler).toBe('functions/swap/quote.handler')
    expect(prod.functions.quoteAltchain?.handler).toBe('functions/swap/quote.handler')
  })

  it('runs every function on nodejs22.x, bundled alone', () => {
    for (const fn of prod.ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x')
    }
    for (const fn of Object.values(prod.functions)) {
      expect(readdirSync(prod.dir)).toContain(fn.package.artifact.split('/').pop())
    }
  })

  it('schedules every scheduled function with an EventBridge rule', () => {
    const scheduled = Object.entries(prod.functions).filter(([, fn]) =>
      fn.events.some((e) => e.schedule),
    )
    const rules = prod.ofType('AWS::Events::Rule')

    expect(rules).toHaveLength(
      scheduled.reduce((count, [, fn]) => count + fn.events.filter((e) => e.schedule).length, 0),
    )
  })

  it('logs access with the route template, never the raw path', () => {
    const [stage] = prod.ofHttpApi('AWS::ApiGatewayV2::Stage')
    const format = String(
      (stage?.Properties.AccessLogSettings as { Format: string } | undefined)?.Format,
    )

    expect(format).toContain('$context.routeKey')
    expect(format).not.toMatch(/\$context\.(path|rawPath|resourcePath)/)
    expect(stage?.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingBurstLimit: expect.any(Number),
      ThrottlingRateLimit: expect.any(Number),
    })
  })

  it(`throttles the stage and the sign-in routes as capacity guards, ${THROTTLE_HEADROOM} times the peak of lib/serverless/capacity.ts, after their routes exist`, () => {
    type Throttle = { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    const [stage] = prod.ofHttpApi('AWS::ApiGatewayV2::Stage')
    const settings = stage?.Properties.RouteSettings as Record<string, Throttle>
    const stageThrottle = stage?.Properties.DefaultRouteSettings as Throttle
    const peaks: Record<string, number> = PEAK_REQUESTS_PER_SECOND.routes
    const credentialRoutes = Object.keys(peaks)
    // A guard far above peak, never the limit one client's flood reaches for everyone (DECISIONS
    // §10.4): each at least its peak times the headroom, its burst at least its rate, inside the
    // stage's.
    const guard = (throttle: Throttle | undefined, peak: number) => ({
      rateOverPeak: (throttle?.ThrottlingRateLimit ?? 0) >= peak * THROTTLE_HEADROOM,
      burstOverRate: (throttle?.ThrottlingBurstLimit ?? 0) >= (throttle?.ThrottlingRateLimit ?? 1),
    })
    const held = { rateOverPeak: true, burstOverRate: true }

    expect(guard(stageThrottle, PEAK_REQUESTS_PER_SECOND.stage)).toEqual(held)
    expect(Object.keys(settings).sort()).toEqual([...credentialRoutes].sort())
    for (const route of credentialRoutes) {
      expect({ route, ...guard(settings[route], peaks[route] ?? Infinity) }).toEqual({
        route,
        ...held,
      })
      expect(settings[route]?.ThrottlingRateLimit).toBeLessThan(stageThrottle.ThrottlingRateLimit)
    }
    // The stage waits for each of them: for the nested stack that holds it.
    const stageResource = Object.entries(prod.resources).find(([, r]) => r === stage)?.[0] ?? ''
    const dependsOn = prod.stacks.root.Resources[stageResource]?.DependsOn ?? []
    for (const route of credentialRoutes) {
      const [routeId] = Object.entries(prod.resources).find(
        ([, resource]) =>
          resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.RouteKey === route,
      ) ?? ['']
      const holder = Object.entries(prod.stacks.nested).find(
        ([, template]) => routeId in template.Resources,
      )
      expect(dependsOn, route).toContain(holder?.[0])
    }
  })

  it('allows exactly the browser origins the ALLOWED_ORIGINS setting names (CORS)', () => {
    const [api] = prod.ofHttpApi('AWS::ApiGatewayV2::Api')

    expect(api?.Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['https://app.example.com', 'https://admin.example.com:8443'],
      AllowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
      AllowMethods: ['GET', 'POST', 'DELETE'],
      ExposeHeaders: ['Retry-After'],
      MaxAge: 600,
    })
  })

  it('reserves concurrency where a function must not starve the others, and nowhere else', () => {
    const reserved = Object.fromEntries(
      Object.entries(prod.resources)
        .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
        .flatMap(([id, fn]) =>
          fn.Properties.ReservedConcurrentExecutions === undefined
            ? []
            : [[id.replace(/LambdaFunction$/, ''), fn.Properties.ReservedConcurrentExecutions]],
        ),
    )

    expect(reserved).toEqual({
      // scrypt: bounded cost (docs/security.md)
      RegisterAccount: 10,
      LoginAccount: 10,
      // a stalled chain holds each call up to 28 s
      SwapNativeAltchain: 20,
      SwapTokensAltchain: 20,
      SwapTokensEthereum: 20,
      TransferAltchain: 20,
      TransferEthereum: 20,
      SubmitEthereum: 20,
      SubmitAltchain: 20,
      // one run at a time
      SamplePrices: 1,
      SyncMarkets: 1,
      ReconcileTrades: 1,
      IndexDeposits: 1,
    })
    // Lambda keeps 100 of an account's default 1,000 unreserved.
    const total = Object.values(reserved).reduce<number>((sum, value) => sum + Number(value), 0)
    expect(total).toBeLessThanOrEqual(900)
  })

  it('does not make Node read source maps at run time', () => {
    for (const fn of prod.ofType('AWS::Lambda::Function')) {
      const env = fn.Properties.Environment as { Variables: Record<string, string> } | undefined
      expect(env?.Variables.NODE_OPTIONS ?? '').not.toContain('--enable-source-maps')
    }
  })

  it('sets the per-IP budgets of DECISIONS §7.1 and §9.4 on the deployed stage', () => {
    const env = prod.ofType('AWS::Lambda::Function')[0]?.Properties.Environment as {
      Variables: Record<string, string>
    }

    expect(env.Variables).toMatchObject({
      CLIENT_LIMIT_NONCES_PER_MINUTE: '30',
      CLIENT_LIMIT_LOGINS_PER_MINUTE: '20',
      CLIENT_LIMIT_REGISTRATIONS_PER_MINUTE: '5',
      CLIENT_LIMIT_RPC_CALLS_PER_MINUTE: '300',
    })
  })

  it('reads the JWT secret from SSM in deployed stages and never carries one', () => {
    for (const fn of prod.ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect(variables.JWT_SECRET_PARAMETER).toBe('/wallet-backend/prod/jwt-secret')
      expect(variables.JWT_SECRET).toBe('')
      expect(variables.DYNAMODB_ENDPOINT).toBe('')
    }
  })

  it('carries no RPC URL, only the names of the SSM parameters that hold them', () => {
    const template = readFileSync(
      join(prod.dir, 'cloudformation-template-update-stack.json'),
      'utf8',
    )
    for (const fn of prod.ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect(variables).toMatchObject({
        NETWORKS: 'ethereum,altchain',
        ETHEREUM_RPC_URL_PARAMETER: '/wallet-backend/prod/ethereum-rpc-url',
        ALTCHAIN_RPC_URL_PARAMETER: '/wallet-backend/prod/altchain-rpc-url',
      })
      // A network's only variable is its RPC URL parameter: the rest is its table entry
      // (lib/config/networkSettings.ts), read by the function. Nothing of a network the stage
      // does not serve.
      const networkVariables = Object.keys(variables).filter((name) =>
        Object.keys(NETWORK_ENTRIES).some((network) =>
          name.startsWith(`${network.toUpperCase()}_`),
        ),
      )
      expect(networkVariables.sort()).toEqual([
        'ALTCHAIN_RPC_URL_PARAMETER',
        'ETHEREUM_RPC_URL_PARAMETER',
      ])
    }
    // Each network's function is told its network, and only those are.
    for (const [name, fn] of Object.entries(prod.functions)) {
      expect({ name, network: fn.environment?.NETWORK }).toEqual({ name, network: fn.network })
    }
    expect(template).not.toMatch(/rpc\.|publicnode|infura|alchemy/i)
  })
})
