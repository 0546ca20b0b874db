import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { TTL_ATTRIBUTE, tableDefinition } from '../../lib/db/tableSchema'

interface Resource {
  Type: string
  Properties: Record<string, unknown>
}
interface FunctionState {
  handler: string
  events: Array<{ httpApi?: { method: string; path: string }; schedule?: unknown }>
  package: { artifact: string }
}

const packageDir = mkdtempSync(join(tmpdir(), 'sls-package-'))
let resources: Record<string, Resource>
let functions: Record<string, FunctionState>

function ofType(type: string): Resource[] {
  return Object.values(resources).filter((resource) => resource.Type === type)
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

// `serverless package` for the deployed stage, as an operator would run it, but with no AWS
// credentials at all: it must need neither an account nor the network.
beforeAll(async () => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')),
  )
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      'node_modules/serverless/bin/serverless.js',
      'package',
      '--stage',
      'prod',
      '--package',
      packageDir,
    ],
    {
      env: { ...env, AWS_EC2_METADATA_DISABLED: 'true', SLS_TELEMETRY_DISABLED: '1' },
      timeout: 240_000,
    },
  )
  const template = JSON.parse(
    readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8'),
  ) as { Resources: Record<string, Resource> }
  resources = template.Resources
  const state = JSON.parse(readFileSync(join(packageDir, 'serverless-state.json'), 'utf8')) as {
    service: { functions: Record<string, FunctionState> }
  }
  functions = state.service.functions
}, 300_000)

describe('serverless package (stage prod, no credentials)', () => {
  it('declares the single table as the local stack creates it', () => {
    const [table] = ofType('AWS::DynamoDB::Table')
    const expected = tableDefinition('wallet-backend-prod')

    expect(ofType('AWS::DynamoDB::Table')).toHaveLength(1)
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
    const routes = Object.values(functions).flatMap((fn) =>
      fn.events.flatMap((event) =>
        event.httpApi ? [`${event.httpApi.method} ${event.httpApi.path}`] : [],
      ),
    )
    const httpFunctions = Object.values(functions).filter((fn) => fn.events.some((e) => e.httpApi))
    const routeKeys = ofType('AWS::ApiGatewayV2::Route').map((route) => route.Properties.RouteKey)

    expect(httpFunctions.every((fn) => fn.events.filter((e) => e.httpApi).length === 1)).toBe(true)
    expect(new Set(routes).size).toBe(routes.length)
    // The API under /api/v1, its reference under /api/docs.
    expect(routes.every((route) => / \/api\/(v1\/|docs)/.test(route))).toBe(true)
    expect([...routeKeys].sort()).toEqual([...routes].sort())
    expect(ofType('AWS::Lambda::Function')).toHaveLength(Object.keys(functions).length)
    // Every handler file is declared, and every declared handler has its own file.
    const handlerFiles = Object.values(functions).map((fn) =>
      fn.handler.replace(/\.handler$/, '.ts'),
    )
    const files = filesUnder('functions').map((file) => relative('.', file))
    expect([...handlerFiles].sort()).toEqual([...files].sort())
  })

  it('runs every function on nodejs22.x, bundled alone', () => {
    for (const fn of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x')
    }
    for (const fn of Object.values(functions)) {
      expect(readdirSync(packageDir)).toContain(fn.package.artifact.split('/').pop())
    }
  })

  it('schedules every scheduled function with an EventBridge rule', () => {
    const scheduled = Object.entries(functions).filter(([, fn]) =>
      fn.events.some((e) => e.schedule),
    )
    const rules = ofType('AWS::Events::Rule')

    expect(rules).toHaveLength(
      scheduled.reduce((count, [, fn]) => count + fn.events.filter((e) => e.schedule).length, 0),
    )
  })

  it('logs access with the route template, never the raw path', () => {
    const [stage] = ofType('AWS::ApiGatewayV2::Stage')
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

  it('throttles the anonymous credential routes below the stage, after their routes exist', () => {
    const [stage] = ofType('AWS::ApiGatewayV2::Stage')
    const settings = stage?.Properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >
    const stageRate = (stage?.Properties.DefaultRouteSettings as { ThrottlingRateLimit: number })
      .ThrottlingRateLimit
    const credentialRoutes = [
      'GET /api/v1/auth/nonce/{address}',
      'POST /api/v1/auth/login',
      'POST /api/v1/account/login',
      'POST /api/v1/account/register',
    ]

    expect(Object.keys(settings).sort()).toEqual([...credentialRoutes].sort())
    for (const route of credentialRoutes) {
      expect(settings[route]?.ThrottlingRateLimit).toBeLessThan(stageRate)
    }
    const stageResource = Object.entries(resources).find(([, r]) => r === stage)?.[0] ?? ''
    const dependsOn = (
      JSON.parse(
        readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8'),
      ) as { Resources: Record<string, { DependsOn?: string[] }> }
    ).Resources[stageResource]?.DependsOn
    expect(dependsOn).toEqual(expect.arrayContaining(['HttpApiRoutePostApiV1AuthLogin']))
  })

  it('allows no browser origin on a deployed stage until it names its app (CORS)', () => {
    const [api] = ofType('AWS::ApiGatewayV2::Api')

    expect(api?.Properties).not.toHaveProperty('CorsConfiguration')
  })

  it('reserves a bounded concurrency for the two scrypt functions', () => {
    const reserved = Object.fromEntries(
      ofType('AWS::Lambda::Function').map((fn) => [
        String(fn.Properties.Handler),
        fn.Properties.ReservedConcurrentExecutions,
      ]),
    )

    expect(reserved['functions/account/registerAccount.handler']).toBe(10)
    expect(reserved['functions/account/loginAccount.handler']).toBe(10)
  })

  it('does not make Node read source maps at run time', () => {
    for (const fn of ofType('AWS::Lambda::Function')) {
      const env = fn.Properties.Environment as { Variables: Record<string, string> } | undefined
      expect(env?.Variables.NODE_OPTIONS ?? '').not.toContain('--enable-source-maps')
    }
  })

  it('sets the per-IP budgets of DECISIONS §7.1 on the deployed stage', () => {
    const env = ofType('AWS::Lambda::Function')[0]?.Properties.Environment as {
      Variables: Record<string, string>
    }

    expect(env.Variables).toMatchObject({
      CLIENT_LIMIT_NONCES_PER_MINUTE: '30',
      CLIENT_LIMIT_LOGINS_PER_MINUTE: '20',
      CLIENT_LIMIT_REGISTRATIONS_PER_MINUTE: '5',
    })
  })

  it('scopes IAM to the table, its indexes and the stage secret', () => {
    const role = ofType('AWS::IAM::Role')[0]
    const statements = JSON.stringify(role?.Properties.Policies)

    expect(statements).toContain('"dynamodb:Query"')
    expect(statements).not.toContain('"dynamodb:*"')
    expect(statements).not.toContain('"dynamodb:Scan"')
    expect(statements).toContain('{"Fn::GetAtt":["Table","Arn"]}')
    expect(statements).toContain('parameter/wallet-backend/prod/*')
  })

  it('reads the JWT secret from SSM in deployed stages and never carries one', () => {
    for (const fn of ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect(variables.JWT_SECRET_PARAMETER).toBe('/wallet-backend/prod/jwt-secret')
      expect(variables.JWT_SECRET).toBe('')
      expect(variables.DYNAMODB_ENDPOINT).toBe('')
    }
  })
})
