import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import esbuildOptions from '../../esbuild.config'
import { clientWindowKey, noncePartition } from '../../lib/db/keys'
import { TTL_ATTRIBUTE, tableDefinition } from '../../lib/db/tableSchema'
import { DEFAULT_NETWORKS, NETWORK_ENTRIES } from '../../lib/networks'
import { PEAK_REQUESTS_PER_SECOND, THROTTLE_HEADROOM } from '../../lib/serverless/capacity'
import { functionName, operationPath, operationsOf } from '../../lib/networks/operations'
import { type PackagedStacks, readPackagedStacks, resourceCounts } from '../support/packagedStacks'
import { type SourceMapPayload, tableActionsOfBundle } from '../support/tableActionsOfBundle'
import { zipEntries } from '../support/zipEntries'

interface Resource {
  Type: string
  Properties: Record<string, unknown>
}
interface FunctionState {
  handler: string
  network?: string
  environment?: Record<string, string>
  events: Array<{ httpApi?: { method: string; path: string }; schedule?: unknown }>
  package: { artifact: string }
  access: { table?: string[]; parameters?: string[] }
}
interface Statement {
  Effect: string
  Action: string[]
  Resource: unknown
  Condition?: Record<string, Record<string, string[]>>
}

// The settings a deployed stage requires (custom.requiredSettings), as an operator exports them.
const ALARM_TOPIC = 'arn:aws:sns:us-east-1:123456789012:wallet-ops'
const REQUIRED_SETTINGS = {
  SIWE_DOMAIN: 'app.example.com',
  SIWE_URI: 'https://app.example.com',
  ALARM_TOPIC_ARN: ALARM_TOPIC,
  ALLOWED_ORIGINS: 'https://app.example.com, https://admin.example.com:8443',
}
// Without the suite stack's NETWORKS (it serves every network of the table): a stage serves the
// default two unless a test names others.
const cliEnv = () => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && name !== 'NETWORKS'),
  ),
  AWS_EC2_METADATA_DISABLED: 'true',
  SLS_TELEMETRY_DISABLED: '1',
})

// The CLI as `npx serverless` runs it: plain Node (22, as the suite), no tsx over it;
// serverless.yml loads its TypeScript itself (lib/serverless/plugin.cjs, esbuild.config.cjs).
const SERVERLESS_CLI = 'node_modules/serverless/bin/serverless.js'
const packageDir = mkdtempSync(join(tmpdir(), 'sls-package-'))
let resources: Record<string, Resource>
let stacks: PackagedStacks
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
  await promisify(execFile)(
    process.execPath,
    [SERVERLESS_CLI, 'package', '--stage', 'prod', '--package', packageDir],
    {
      env: { ...cliEnv(), ...REQUIRED_SETTINGS },
      // Bounds, not measures: a package takes about a minute here, over 5 under heavy load.
      timeout: 840_000,
    },
  )
  // The deployment is a root stack and nested ones (lib/serverless/stackLayout.ts): the tests of
  // what it holds read every stack's resources, references across stacks resolved.
  stacks = readPackagedStacks(packageDir)
  resources = stacks.flattened
  const state = JSON.parse(readFileSync(join(packageDir, 'serverless-state.json'), 'utf8')) as {
    service: { functions: Record<string, FunctionState> }
  }
  functions = state.service.functions
}, 900_000)

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
    // Every handler file is declared, and every declared handler has its own file; beside it,
    // only its route's doc (lib/openapi/routeDoc.ts), which no bundle imports. A network
    // operation's file is the handler of its function on each network (told which by NETWORK).
    const handlerFiles = new Set(
      Object.values(functions).map((fn) => fn.handler.replace(/\.handler$/, '.ts')),
    )
    const files = filesUnder('functions').map((file) => relative('.', file))
    expect([...handlerFiles].sort()).toEqual(
      files.filter((file) => !file.endsWith('.doc.ts')).sort(),
    )
    expect(functions.quoteEthereum?.handler).toBe('functions/swap/quote.handler')
    expect(functions.quoteAltchain?.handler).toBe('functions/swap/quote.handler')
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

  it(`throttles the stage and the sign-in routes as capacity guards, ${THROTTLE_HEADROOM} times the peak of lib/serverless/capacity.ts, after their routes exist`, () => {
    type Throttle = { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    const [stage] = ofType('AWS::ApiGatewayV2::Stage')
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
    const stageResource = Object.entries(resources).find(([, r]) => r === stage)?.[0] ?? ''
    const dependsOn = stacks.root.Resources[stageResource]?.DependsOn ?? []
    for (const route of credentialRoutes) {
      const [routeId] = Object.entries(resources).find(
        ([, resource]) =>
          resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.RouteKey === route,
      ) ?? ['']
      const holder = Object.entries(stacks.nested).find(
        ([, template]) => routeId in template.Resources,
      )
      expect(dependsOn, route).toContain(holder?.[0])
    }
  })

  it('allows exactly the browser origins the ALLOWED_ORIGINS setting names (CORS)', () => {
    const [api] = ofType('AWS::ApiGatewayV2::Api')

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
      Object.entries(resources)
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
    for (const fn of ofType('AWS::Lambda::Function')) {
      const env = fn.Properties.Environment as { Variables: Record<string, string> } | undefined
      expect(env?.Variables.NODE_OPTIONS ?? '').not.toContain('--enable-source-maps')
    }
  })

  it('sets the per-IP budgets of DECISIONS §7.1 and §9.4 on the deployed stage', () => {
    const env = ofType('AWS::Lambda::Function')[0]?.Properties.Environment as {
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
    for (const fn of ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect(variables.JWT_SECRET_PARAMETER).toBe('/wallet-backend/prod/jwt-secret')
      expect(variables.JWT_SECRET).toBe('')
      expect(variables.DYNAMODB_ENDPOINT).toBe('')
    }
  })

  it('carries no RPC URL, only the names of the SSM parameters that hold them', () => {
    const template = readFileSync(
      join(packageDir, 'cloudformation-template-update-stack.json'),
      'utf8',
    )
    for (const fn of ofType('AWS::Lambda::Function')) {
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
    for (const [name, fn] of Object.entries(functions)) {
      expect({ name, network: fn.environment?.NETWORK }).toEqual({ name, network: fn.network })
    }
    expect(template).not.toMatch(/rpc\.|publicnode|infura|alchemy/i)
  })
})

// The source maps are a build artifact of their own, beside the zips (lean zips, issue 25).
function sourceMapOf(functionName: string): SourceMapPayload {
  return JSON.parse(
    readFileSync(join(packageDir, 'sourcemaps', `${functionName}.js.map`), 'utf8'),
  ) as SourceMapPayload
}

function bundleSources(functionName: string): string[] {
  return sourceMapOf(functionName).sources
}

function statementsOf(functionName: string): Statement[] {
  const fn = Object.entries(resources).find(
    ([id]) => id === `${functionName[0]?.toUpperCase()}${functionName.slice(1)}LambdaFunction`,
  )?.[1]
  const roleId = (fn?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]
  const role = resources[roleId]
  expect(role?.Type).toBe('AWS::IAM::Role')
  const [policy] = role?.Properties.Policies as Array<{
    PolicyDocument: { Statement: Statement[] }
  }>
  return policy?.PolicyDocument.Statement ?? []
}

const grantedActions = (statements: Statement[], prefix: string) =>
  statements.flatMap((s) => s.Action.filter((action) => action.startsWith(prefix))).sort()

describe('least privilege: one role per function', () => {
  it('gives every function a role of its own and builds no shared one', () => {
    const roleIds = ofType('AWS::Lambda::Function').map(
      (fn) => (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0],
    )

    expect(new Set(roleIds).size).toBe(Object.keys(functions).length)
    // Besides them, only CodeDeploy's role for moving the aliases (gradual rollout).
    expect(ofType('AWS::IAM::Role')).toHaveLength(Object.keys(functions).length + 1)
    expect(resources.CodeDeployServiceRole?.Properties.AssumeRolePolicyDocument).toMatchObject({
      Statement: [{ Principal: { Service: ['codedeploy.amazonaws.com'] } }],
    })
    expect(resources).not.toHaveProperty('IamRoleLambdaExecution')
  })

  it('grants each function exactly the table actions its own code path can call', () => {
    const granted: Record<string, string[]> = {}
    const derived: Record<string, string[]> = {}
    for (const name of Object.keys(functions)) {
      granted[name] = grantedActions(statementsOf(name), 'dynamodb:')
      derived[name] = tableActionsOfBundle(sourceMapOf(name))
    }

    expect(granted).toEqual(derived)
    // Spot checks of the derivation: the docs and mnemonic functions touch nothing, nothing
    // scans, and only the route whose transaction checks that its networks exist may make a
    // condition check.
    expect(granted.generateMnemonic).toEqual([])
    expect(granted.getOpenApiDocument).toEqual([])
    expect(granted.listNetworks).toEqual(['dynamodb:Query'])
    expect(Object.values(granted).flat()).not.toContain('dynamodb:Scan')
    expect(
      Object.keys(granted).filter((name) => granted[name]?.includes('dynamodb:ConditionCheckItem')),
    ).toEqual(['attachWalletNetworks'])
  })

  it('lets no read route write or delete, beyond the writes that are its purpose', () => {
    const READS = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']
    const writesOf = (actions: string[]) => actions.filter((action) => !READS.includes(action))
    const readRoutes = Object.entries(functions)
      .filter(([, fn]) => fn.events.some((event) => event.httpApi?.method === 'GET'))
      .map(([name]) => name)
    const derived = Object.fromEntries(
      readRoutes.map((name) => [name, writesOf(tableActionsOfBundle(sourceMapOf(name)))]),
    )
    const granted = Object.fromEntries(
      readRoutes.map((name) => [name, writesOf(grantedActions(statementsOf(name), 'dynamodb:'))]),
    )
    // GET routes that write by design: a nonce is issued (and the caller's budget counted), a
    // quote, the balances and the approval charge their caller's RPC budget, a pending trade is settled from its
    // receipt when looked up, a refresh (GET in the interface) rotates its session and revokes
    // the family on a replay, so only the refreshes delete.
    const rotation = ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']
    const expected = Object.fromEntries(
      readRoutes.map((name) => [
        name,
        {
          getNonce: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
          quoteAltchain: ['dynamodb:UpdateItem'],
          quoteEthereum: ['dynamodb:UpdateItem'],
          refreshWalletSession: rotation,
          refreshAccountSession: rotation,
          getTradeByHash: ['dynamodb:UpdateItem'],
          getTradeById: ['dynamodb:UpdateItem'],
          getWalletBalances: ['dynamodb:UpdateItem'],
          getApproval: ['dynamodb:UpdateItem'],
        }[name] ?? [],
      ]),
    )

    expect(readRoutes).toHaveLength(21)
    expect(derived).toEqual(expected)
    expect(granted).toEqual(expected)
  })

  it('scopes table grants to the table and its indexes', () => {
    for (const name of Object.keys(functions)) {
      for (const statement of statementsOf(name)) {
        if (!statement.Action.some((action) => action.startsWith('dynamodb:'))) continue
        expect(statement.Resource).toEqual([
          { 'Fn::GetAtt': ['Table', 'Arn'] },
          { 'Fn::Join': ['/', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, 'index', '*']] },
        ])
      }
    }
  })

  it("confines the quote, prepare, balance and nonce roles' writes to their own key prefixes (dynamodb:LeadingKeys)", () => {
    const WRITES = ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']
    const RPC_BUDGET = ['CLIENT#rpc#*']
    const confined: Record<string, string[]> = {
      getNonce: ['NONCE#*', 'CLIENT#nonce#*'],
      getWalletBalances: RPC_BUDGET,
      getApproval: RPC_BUDGET,
      ...Object.fromEntries(
        Object.keys(functions)
          .filter((name) => /^(quote|prepare)/.test(name))
          .map((name) => [name, RPC_BUDGET]),
      ),
    }
    // Each network's quote and prepares, the balances, the approval and the nonce.
    expect(Object.keys(confined)).toHaveLength(3 + 4 * DEFAULT_NETWORKS.length - 1)

    for (const [name, prefixes] of Object.entries(confined)) {
      const statements = statementsOf(name).filter((statement) =>
        statement.Action.some((action) => WRITES.includes(action)),
      )
      // Every write the role may make sits under the condition, with exactly these prefixes.
      expect({ name, statements: statements.map((s) => s.Condition) }).toEqual({
        name,
        statements: [{ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes } }],
      })
      expect(statements[0]?.Action.every((action) => WRITES.includes(action))).toBe(true)
    }
    // The prefixes are the keys the code writes (lib/db/keys.ts): its client windows, its nonces.
    expect(clientWindowKey('rpc', '192.0.2.1', 0).pk).toMatch(/^CLIENT#rpc#/)
    expect(clientWindowKey('nonce', '192.0.2.1', 0).pk).toMatch(/^CLIENT#nonce#/)
    expect(noncePartition('0x0000000000000000000000000000000000000001')).toMatch(/^NONCE#/)
  })

  it('lets only the functions that read the JWT secret or an RPC URL read SSM, each its own', () => {
    for (const name of Object.keys(functions)) {
      const sources = bundleSources(name)
      const readable = ofParameters(statementsOf(name))
      const expected = [
        ...(sources.some((source) => source.endsWith('lib/auth/jwtSecret.ts'))
          ? ['/wallet-backend/prod/jwt-secret']
          : []),
      ]
      if (sources.some((source) => source.endsWith('lib/chain/rpcUrls.ts'))) {
        // A route of one network reads that network's URLs; loginWallet checks contract
        // wallets on ethereum; every other chain function serves each network the stage serves.
        const network = (functions[name] as FunctionState & { network?: string }).network
        const reads = network ? [network] : name === 'loginWallet' ? ['ethereum'] : DEFAULT_NETWORKS
        expected.push(...reads.map((read) => `/wallet-backend/prod/${read}-rpc-url`))
      }
      expect({ name, readable }).toEqual({ name, readable: expected.sort() })
      expect(grantedActions(statementsOf(name), 'ssm:')).toEqual(
        expected.length > 0 ? ['ssm:GetParameter'] : [],
      )
      expect(grantedActions(statementsOf(name), 'kms:')).toEqual([])
    }
  })
})

function ofParameters(statements: Statement[]): string[] {
  return statements
    .filter((statement) => statement.Action.includes('ssm:GetParameter'))
    .flatMap((statement) => statement.Resource as Array<{ 'Fn::Sub': string }>)
    .map((resource) => resource['Fn::Sub'].replace(/^.*:parameter/, ''))
    .sort()
}

describe('stages that cannot be deployed wrong', () => {
  const run = (args: string[], env: Record<string, string | undefined>) => {
    try {
      execFileSync(process.execPath, [SERVERLESS_CLI, ...args], {
        env: { ...cliEnv(), ...env },
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 600_000,
      })
      return { exitCode: 0, output: '' }
    } catch (error) {
      const failure = error as { status: number; stdout: string; stderr: string }
      return { exitCode: failure.status, output: failure.stdout + failure.stderr }
    }
  }
  const withoutSettings = {
    SIWE_DOMAIN: undefined,
    SIWE_URI: undefined,
    ALARM_TOPIC_ARN: undefined,
    ALLOWED_ORIGINS: undefined,
  }

  it('loads serverless.yml, its plugin and its esbuild config under plain Node', () => {
    const printed = execFileSync(process.execPath, [SERVERLESS_CLI, 'print', '--stage', 'local'], {
      env: cliEnv(),
      encoding: 'utf8',
      timeout: 600_000,
    })

    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22)
    expect(printed).toMatch(/^service: wallet-backend$/m)
    // The plugin's own function property, accepted by the schema the plugin defines.
    expect(printed).toMatch(/^ {4}access:\n {6}table:\n {8}- Query$/m)
    expect(printed).toContain('config: ./esbuild.config.cjs')
  })

  it('refuses to package without --stage, since the default stage is local', () => {
    const result = run(['package', '--package', mkdtempSync(join(tmpdir(), 'sls-'))], {})

    expect(result.exitCode).not.toBe(0)
    expect(result.output).toContain('Stage "local" runs only under `npm start`')
    expect(result.output).toContain('--stage <name>')
  })

  it('refuses to deploy local, before asking AWS for anything', () => {
    for (const args of [['deploy'], ['deploy', 'function', '-f', 'getNonce']]) {
      const result = run([...args, '--stage', 'local'], REQUIRED_SETTINGS)

      expect(result.exitCode).not.toBe(0)
      expect(result.output).toContain('Stage "local" runs only under `npm start`')
    }
  })

  it('names every required setting a deployed stage lacks', () => {
    const none = run(['package', '--stage', 'prod'], withoutSettings)
    const noUri = run(['package', '--stage', 'prod'], {
      ...REQUIRED_SETTINGS,
      SIWE_URI: undefined,
    })
    const blankDomain = run(['deploy', '--stage', 'prod'], {
      ...REQUIRED_SETTINGS,
      SIWE_DOMAIN: '  ',
    })

    expect(none.output).toContain(
      'Stage "prod" is missing SIWE_DOMAIN, SIWE_URI, ALARM_TOPIC_ARN, ALLOWED_ORIGINS:',
    )
    expect(noUri.output).toContain('Stage "prod" is missing SIWE_URI:')
    expect(blankDomain.output).toContain('Stage "prod" is missing SIWE_DOMAIN:')
    for (const result of [none, noUri, blankDomain]) expect(result.exitCode).not.toBe(0)
    // Three CLI starts: each takes seconds, over 20 on a loaded 2-core machine.
  }, 600_000)

  it('refuses a wildcard or anything but an origin in ALLOWED_ORIGINS, and an unknown rollout', () => {
    const packageWith = (settings: Record<string, string>) =>
      run(['package', '--stage', 'prod', '--package', mkdtempSync(join(tmpdir(), 'sls-'))], {
        ...REQUIRED_SETTINGS,
        ...settings,
      })
    const wildcard = packageWith({ ALLOWED_ORIGINS: 'https://app.example.com,*' })
    const subdomains = packageWith({ ALLOWED_ORIGINS: 'https://*.example.com' })
    const withPath = packageWith({ ALLOWED_ORIGINS: 'https://app.example.com/' })
    const rollout = packageWith({ LAMBDA_ROLLOUT: 'CodeDeployDefault.AllAtOnce' })

    expect(wildcard.output).toContain('Stage "prod": ALLOWED_ORIGINS holds the wildcard "*"')
    expect(subdomains.output).toContain(
      'ALLOWED_ORIGINS holds the wildcard "https://*.example.com"',
    )
    expect(withPath.output).toContain(
      'ALLOWED_ORIGINS holds "https://app.example.com/", not an origin',
    )
    expect(rollout.output).toContain('LAMBDA_ROLLOUT is "CodeDeployDefault.AllAtOnce"')
    for (const result of [wildcard, subdomains, withPath, rollout]) {
      expect(result.exitCode).not.toBe(0)
    }
    // Four CLI starts: a bound, not a measure (about 15 s each under load).
  }, 600_000)
})

interface Alarm {
  AlarmName: string
  AlarmActions: unknown[]
  OKActions: unknown[]
  Threshold: number
  ComparisonOperator: string
  Metrics: Array<{
    Id: string
    Expression?: string
    MetricStat?: {
      Metric: {
        Namespace: string
        MetricName: string
        Dimensions: Array<{ Name: string; Value: unknown }>
      }
    }
  }>
}

describe('operations', () => {
  const alarms = () =>
    ofType('AWS::CloudWatch::Alarm').map((alarm) => alarm.Properties as unknown as Alarm)
  const alarmOn = (metricName: string) =>
    alarms().filter((alarm) =>
      alarm.Metrics.some((metric) => metric.MetricStat?.Metric.MetricName === metricName),
    )
  const metricNames = (alarm: Alarm) =>
    alarm.Metrics.flatMap((metric) =>
      metric.MetricStat ? [metric.MetricStat.Metric.MetricName] : [],
    )

  it("sends every alarm to the stage's SNS topic", () => {
    expect(alarms().length).toBeGreaterThan(0)
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions).toEqual([ALARM_TOPIC])
      expect(alarm.OKActions).toEqual([ALARM_TOPIC])
      expect(alarm.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold')
    }
  })

  it("alarms on each function's errors and throttles", () => {
    const byFunction = new Map(
      alarmOn('Errors').map((alarm) => [
        JSON.stringify(alarm.Metrics[0]?.MetricStat?.Metric.Dimensions),
        alarm,
      ]),
    )
    for (const id of Object.keys(resources).filter((id) => id.endsWith('LambdaFunction'))) {
      const alarm = byFunction.get(JSON.stringify([{ Name: 'FunctionName', Value: { Ref: id } }]))
      expect(alarm, id).toBeDefined()
      expect(metricNames(alarm as Alarm).sort()).toEqual(['Errors', 'Throttles'])
      expect(alarm?.Threshold).toBe(1)
    }
    expect(byFunction.size).toBe(Object.keys(functions).length)
  })

  it("alarms on the API's 5xx rate and the chain 502 rate, counted from the access log", () => {
    const [http5xx] = alarmOn('5xx')
    const [chain] = alarmOn('Chain502')
    const [filter] = ofType('AWS::Logs::MetricFilter')

    expect(metricNames(http5xx as Alarm).sort()).toEqual(['5xx', 'Count'])
    expect(http5xx?.Metrics.at(-1)?.Expression).toBe(
      'IF(requests >= 20, 100 * errors / requests, 0)',
    )
    expect(http5xx?.Threshold).toBe(5)
    expect(chain?.Metrics.at(-1)?.Expression).toBe('IF(requests >= 20, 100 * chain / requests, 0)')
    expect(filter?.Properties).toMatchObject({
      LogGroupName: { Ref: 'HttpApiLogGroup' },
      FilterPattern: '{ $.status = "502" }',
      MetricTransformations: [
        { MetricNamespace: 'wallet-backend/prod', MetricName: 'Chain502', MetricValue: '1' },
      ],
    })
  })

  it('alarms on DynamoDB throttles and on failed schedule runs', () => {
    const [table] = alarmOn('ReadThrottleEvents')
    const [schedules] = alarmOn('ApproximateNumberOfMessagesVisible')

    expect(metricNames(table as Alarm).sort()).toEqual([
      'ReadThrottleEvents',
      'WriteThrottleEvents',
    ])
    expect(table?.Metrics[0]?.MetricStat?.Metric.Dimensions).toEqual([
      { Name: 'TableName', Value: { Ref: 'Table' } },
    ])
    expect(schedules?.Metrics[0]?.MetricStat?.Metric.Dimensions).toEqual([
      { Name: 'QueueName', Value: { 'Fn::GetAtt': ['ScheduleFailureQueue', 'QueueName'] } },
    ])
  })

  it("sends every schedule's failed run to the failure queue, which only schedules may write", () => {
    const scheduled = Object.entries(functions)
      .filter(([, fn]) => fn.events.some((event) => event.schedule))
      .map(([name]) => name)
    const configs = ofType('AWS::Lambda::EventInvokeConfig').map((config) => config.Properties)

    expect(scheduled).toHaveLength(4)
    expect(configs).toHaveLength(4)
    for (const name of scheduled) {
      const id = `${name[0]?.toUpperCase()}${name.slice(1)}LambdaFunction`
      const config = configs.find(
        (candidate) => JSON.stringify(candidate.FunctionName) === JSON.stringify({ Ref: id }),
      )
      expect(config, name).toMatchObject({
        DestinationConfig: {
          OnFailure: { Destination: { 'Fn::GetAtt': ['ScheduleFailureQueue', 'Arn'] } },
        },
        MaximumRetryAttempts: 0,
      })
    }
    for (const name of Object.keys(functions)) {
      expect(grantedActions(statementsOf(name), 'sqs:'), name).toEqual(
        scheduled.includes(name) ? ['sqs:SendMessage'] : [],
      )
    }
  })

  it("writes business metrics to the stage's namespace, beside the 502 metric", () => {
    for (const fn of ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect(variables).toMatchObject({
        METRICS_NAMESPACE: 'wallet-backend/prod',
        METRICS_SERVICE: 'wallet-backend',
      })
    }
  })

  it('publishes a version of every function, and protects the table from deletion', () => {
    const versions = ofType('AWS::Lambda::Version')
    const [table] = ofType('AWS::DynamoDB::Table')

    expect(versions).toHaveLength(Object.keys(functions).length)
    expect(table?.Properties.DeletionProtectionEnabled).toBe(true)
  })

  it('leaves X-Ray to the stage: no active tracing and no X-Ray grant by default', () => {
    for (const fn of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'PassThrough' })
    }
    for (const name of Object.keys(functions)) {
      expect(grantedActions(statementsOf(name), 'xray:')).toEqual([])
    }
  })

  it('draws a dashboard of the API, every function, the table and the schedules', () => {
    const [dashboard] = ofType('AWS::CloudWatch::Dashboard')
    const body = String((dashboard?.Properties.DashboardBody as { 'Fn::Sub': string })['Fn::Sub'])
    const titles = (
      JSON.parse(body) as { widgets: Array<{ properties: { title: string } }> }
    ).widgets.map((widget) => widget.properties.title)

    expect(titles).toEqual([
      'API requests and errors',
      'API latency p99 (ms)',
      'Lambda errors per function',
      'Lambda throttles per function',
      'DynamoDB capacity and throttles',
      'Failed schedule runs waiting',
      'Lambda p99 duration of the alarmed functions (ms)',
    ])
    for (const name of Object.keys(functions))
      expect(body).toContain(`"wallet-backend-prod-${name}"`)
    expect(body).toContain('${HttpApi}')
    expect(body).toContain('${Table}')
  })
})

describe('latency and gradual rollout', () => {
  const alarmProperties = (id: string) => resources[id]?.Properties as unknown as Alarm
  const functionsOf = (alarm: Alarm) =>
    alarm.Metrics.flatMap((metric) =>
      metric.MetricStat
        ? [String((metric.MetricStat.Metric.Dimensions[0]?.Value as { Ref: string }).Ref)]
        : [],
    )

  it('alarms on the p99 duration of the money-moving and sign-in functions', () => {
    const money = alarmProperties('MoneyMovingDurationAlarm')
    const signIn = alarmProperties('SignInDurationAlarm')

    expect(functionsOf(money).sort()).toEqual(
      [
        'SwapNativeAltchain',
        'SwapTokensAltchain',
        'SwapTokensEthereum',
        'TransferAltchain',
        'TransferEthereum',
        'SubmitEthereum',
        'SubmitAltchain',
      ]
        .map((name) => `${name}LambdaFunction`)
        .sort(),
    )
    expect(functionsOf(signIn).sort()).toEqual([
      'LoginAccountLambdaFunction',
      'LoginWalletLambdaFunction',
      'RefreshAccountSessionLambdaFunction',
      'RefreshWalletSessionLambdaFunction',
    ])
    for (const alarm of [money, signIn]) {
      const stats = alarm.Metrics.flatMap((metric) =>
        metric.MetricStat ? [metric.MetricStat as unknown as { Stat: string }] : [],
      )
      expect(new Set(stats.map((stat) => stat.Stat))).toEqual(new Set(['p99']))
      expect(alarm.Metrics.at(-1)?.Expression).toMatch(/^MAX\(\[f0, f1, f2, f3/)
      expect(alarm.AlarmActions).toEqual([ALARM_TOPIC])
    }
    // An executing route may wait for a block or two (timeout 28 s); a sign-in may not.
    expect(money.Threshold).toBe(20_000)
    expect(signIn.Threshold).toBe(3_000)
  })

  it("alarms on the API's p99 latency once enough requests came in", () => {
    const latency = alarmProperties('ApiLatencyAlarm')

    expect(latency.Metrics[0]?.MetricStat?.Metric).toEqual({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      Dimensions: [
        { Name: 'ApiId', Value: { Ref: 'HttpApi' } },
        { Name: 'Stage', Value: '$default' },
      ],
    })
    expect(latency.Metrics.at(-1)?.Expression).toBe('IF(requests >= 20, latency, 0)')
    expect(latency.Threshold).toBe(10_000)
  })

  it('gives every function a live alias that a canary deployment moves, rolled back on its alarm', () => {
    for (const name of Object.keys(functions)) {
      const id = `${name[0]?.toUpperCase()}${name.slice(1)}`
      const alias = resources[`${id}LiveAlias`] as Resource & { UpdatePolicy: unknown }
      const group = resources[`${id}DeploymentGroup`]
      const version = Object.entries(resources).find(
        ([, resource]) =>
          resource.Type === 'AWS::Lambda::Version' &&
          JSON.stringify(resource.Properties.FunctionName) ===
            JSON.stringify({ Ref: `${id}LambdaFunction` }),
      )?.[0]

      expect(alias?.Properties, name).toEqual({
        FunctionName: { Ref: `${id}LambdaFunction` },
        FunctionVersion: { 'Fn::GetAtt': [version, 'Version'] },
        Name: 'live',
      })
      expect(alias.UpdatePolicy).toEqual({
        CodeDeployLambdaAliasUpdate: {
          ApplicationName: { Ref: 'CodeDeployApplication' },
          DeploymentGroupName: { Ref: `${id}DeploymentGroup` },
        },
      })
      expect(group?.Properties).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
        AlarmConfiguration: { Enabled: true, Alarms: [{ Name: { Ref: `${id}FailureAlarm` } }] },
        AutoRollbackConfiguration: {
          Enabled: true,
          Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM'],
        },
      })
      expect(resources[`${id}FailureAlarm`]?.Type).toBe('AWS::CloudWatch::Alarm')
    }
    expect(ofType('AWS::CodeDeploy::Application')).toEqual([
      { Type: 'AWS::CodeDeploy::Application', Properties: { ComputePlatform: 'Lambda' } },
    ])
  })

  it('invokes every function through its alias: routes, schedules, permissions, destinations', () => {
    const aliasRef = (value: unknown) =>
      /^\{"Ref":"\w+LiveAlias"\}$/.test(JSON.stringify(value)) ? 'alias' : JSON.stringify(value)

    expect(
      ofType('AWS::ApiGatewayV2::Integration').map((i) => aliasRef(i.Properties.IntegrationUri)),
    ).toEqual(Array(44).fill('alias'))
    expect(
      ofType('AWS::Lambda::Permission').map((p) => aliasRef(p.Properties.FunctionName)),
    ).toEqual(Array(Object.keys(functions).length).fill('alias'))
    expect(
      ofType('AWS::Events::Rule').flatMap((rule) =>
        (rule.Properties.Targets as Array<{ Arn: unknown }>).map((target) => aliasRef(target.Arn)),
      ),
    ).toEqual(Array(4).fill('alias'))
    expect(
      ofType('AWS::Lambda::EventInvokeConfig').map((config) => config.Properties.Qualifier),
    ).toEqual(Array(4).fill('live'))
  })
})

// CloudFormation takes 500 resources a stack. A WebSocket API for push, measured by packaging one
// (three routes, $connect, $disconnect and $default, each its own function): 33 resources, 2 of
// them shared (the API and its stage) and 31 with its functions (each function 10 with its route,
// integration and invoke permission, and the API's deployment). docs/operations.md, Stacks.
const STACK_LIMIT = 500
const WEBSOCKET_API_RESOURCES = 33

/** A function's environment as Lambda counts it against its 4 KB: names and values. */
function environmentBytes(fn: Resource): number {
  const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> })
    ?.Variables
  return Object.entries(variables ?? {}).reduce(
    (sum, [name, value]) => sum + name.length + (typeof value === 'string' ? value.length : 0),
    0,
  )
}
const LAMBDA_ENVIRONMENT_BYTES = 4096

describe('stacks and their limits', () => {
  it('keeps in the root only what the functions share, and one nested stack per area or network', () => {
    const rootTypes = new Set(Object.values(stacks.root.Resources).map((r) => r.Type))
    const stackOf = (id: string) =>
      Object.entries(stacks.nested).find(([, template]) => id in template.Resources)?.[0]

    for (const type of [
      'AWS::Lambda::Function',
      'AWS::Lambda::Version',
      'AWS::Lambda::Alias',
      'AWS::Lambda::Permission',
      'AWS::ApiGatewayV2::Route',
      'AWS::ApiGatewayV2::Integration',
      'AWS::CodeDeploy::DeploymentGroup',
    ]) {
      expect(rootTypes.has(type), type).toBe(false)
    }
    for (const [name, fn] of Object.entries(functions)) {
      const id = `${name[0]?.toUpperCase()}${name.slice(1)}`
      const area = /^functions\/(\w+)\//.exec(fn.handler)?.[1] ?? ''
      const network = (fn as FunctionState & { network?: string }).network
      const expected = `${(network ?? area)[0]?.toUpperCase()}${(network ?? area).slice(1)}Stack`
      // The function and what is its alone: role, log group, version, alias, alarm, rollout.
      for (const own of [
        `${id}LambdaFunction`,
        `${id}LambdaRole`,
        `${id}LogGroup`,
        `${id}LiveAlias`,
        `${id}FailureAlarm`,
        `${id}DeploymentGroup`,
      ]) {
        expect({ own, stack: stackOf(own) }).toEqual({ own, stack: expected })
      }
    }
    // The root's own: API, stage, table, queue, bucket, CodeDeploy, stage-wide alarms, dashboard.
    expect(stacks.root.Resources.Table?.Type).toBe('AWS::DynamoDB::Table')
    expect(stacks.root.Resources.HttpApiStage?.Type).toBe('AWS::ApiGatewayV2::Stage')
    expect(stacks.root.Resources.MoneyMovingDurationAlarm?.Type).toBe('AWS::CloudWatch::Alarm')
  })

  it(`leaves every stack room for a WebSocket API (${WEBSOCKET_API_RESOURCES} resources) under ${STACK_LIMIT}`, () => {
    const counts = resourceCounts(stacks)

    for (const [stack, count] of Object.entries(counts)) {
      expect({ stack, count }).toEqual({
        stack,
        count: expect.toSatisfy((n: number) => n + WEBSOCKET_API_RESOURCES <= STACK_LIMIT),
      })
    }
    // What the split adds: one stack resource per nested stack, nothing else.
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0)
    expect(total).toBe(Object.keys(resources).length + Object.keys(stacks.nested).length)
  })

  it("keeps every function's environment under Lambda's 4 KB", () => {
    const sizes = ofType('AWS::Lambda::Function').map(environmentBytes)

    expect(sizes.length).toBe(Object.keys(functions).length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LAMBDA_ENVIRONMENT_BYTES)
  })
})

describe('function zips as deployed (lean zips)', () => {
  const zips = () =>
    Object.keys(functions).map((name) => {
      const path = join(packageDir, `${name}.zip`)
      return { name, bytes: statSync(path).size, entries: [...zipEntries(path).keys()] }
    })

  it('carry their bundle and no source map; the maps are an artifact of their own', () => {
    for (const { name, entries } of zips()) {
      const handler = functions[name]?.handler.replace(/\.handler$/, '.js')
      const extra = name === 'getDocsAsset' ? 2 : 0
      expect({ name, entries: entries.filter((entry) => entry.endsWith('.map')) }).toEqual({
        name,
        entries: [],
      })
      expect(entries).toContain(handler)
      expect(entries).toHaveLength(1 + extra)
      // The artifact's map belongs to the zip's bundle: same file, and it maps the function's code.
      const map = sourceMapOf(name) as SourceMapPayload & { file?: string }
      expect(map.file).toBe(handler?.split('/').pop())
      expect(map.sources).toContain(functions[name]?.handler.replace(/\.handler$/, '.ts'))
    }
  })

  // `serverless package` bundles every function in one esbuild pass (bundleInOnePass.ts): each
  // zip must hold the very bundle serverless-esbuild's own build of that function alone writes,
  // with the options tests/serverless/bundles.test.ts checks. A function of each kind.
  it('carry the bundle a build of their function alone writes, byte for byte', async () => {
    const {
      exclude,
      packager: _packager,
      keepOutputDirectory: _keep,
      outputWorkFolder: _workFolder,
      watch: _watch,
      ...options
    } = esbuildOptions()
    for (const name of ['listNetworks', 'swapTokensEthereum', 'indexDeposits', 'getDocsAsset']) {
      const entry = functions[name]?.handler.replace(/\.handler$/, '.ts') ?? ''
      const alone = await build({
        ...options,
        external: [...(options.external ?? []), ...(exclude ?? [])],
        entryPoints: [entry],
        // Where serverless-esbuild puts it; nothing is written.
        outdir: join('.esbuild', '.build', dirname(entry)),
        write: false,
        logLevel: 'error',
      })
      const bundle = alone.outputFiles.find((file) => file.path.endsWith('.js'))
      const zipped = zipEntries(join(packageDir, `${name}.zip`)).get(entry.replace(/\.ts$/, '.js'))

      expect(bundle?.text.length).toBeGreaterThan(1000)
      expect({ name, same: zipped?.toString('utf8') === bundle?.text }).toEqual({
        name,
        same: true,
      })
    }
  })

  it('stay within their size budgets, zipped as uploaded', () => {
    const KB = 1024
    const sizes = zips()
    const total = sizes.reduce((sum, zip) => sum + zip.bytes, 0)
    const largest = Math.max(
      ...sizes.filter((zip) => zip.name !== 'getDocsAsset').map((zip) => zip.bytes),
    )

    // 13.5 MB with the maps inside; 5.9 MB without (docs/operations.md, Deploying). The two quotes
    // carry the table client since they count their client's RPC budget (issue 32): +58 KB each
    // zipped, 6.34 MB in all when measured; the routing's pool-level candidates and the lens
    // codec (issue 33), in every function that routes: 6.45 MB when measured; the preview
    // (issue 40: the simulation, its decoding and SequenceProbe's runtime in every prepare and
    // {key} route) and the approval route (156 KB): 6,757,306 bytes when measured.
    expect(total).toBeLessThanOrEqual(6_800_000)
    // A swap or transfer: 182 KB (434 KB with its map); with issue 33's pool-level candidates and
    // lens codec, 201 KB when measured; with the preview, 217,546 bytes (212 KB).
    expect(largest).toBeLessThanOrEqual(216 * KB)
    // The Swagger UI assets ship beside the docs function's bundle.
    expect(sizes.find((zip) => zip.name === 'getDocsAsset')?.bytes).toBeLessThanOrEqual(600 * KB)
  })
})

// A second package: a stage serving the table's third network beside the interface's two
// (NETWORKS, DECISIONS §9.5), every function traced (LAMBDA_TRACING=Active).
describe('a stage serving three networks, with active tracing', () => {
  const THREE = 'ethereum,altchain,base'
  let three: PackagedStacks
  let threeFunctions: Record<string, FunctionState & { network?: string }>
  const threeOfType = (type: string) =>
    Object.entries(three.flattened).filter(([, resource]) => resource.Type === type)

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sls-three-'))
    await promisify(execFile)(
      process.execPath,
      [SERVERLESS_CLI, 'package', '--stage', 'traced', '--package', dir],
      {
        env: { ...cliEnv(), ...REQUIRED_SETTINGS, NETWORKS: THREE, LAMBDA_TRACING: 'Active' },
        timeout: 840_000,
      },
    )
    three = readPackagedStacks(dir)
    threeFunctions = (
      JSON.parse(readFileSync(join(dir, 'serverless-state.json'), 'utf8')) as {
        service: { functions: Record<string, FunctionState & { network?: string }> }
      }
    ).service.functions
  }, 900_000)

  it("serves the third network's routes under the interface's paths, from a nested stack of its own", () => {
    const stackOf = (id: string) =>
      Object.entries(three.nested).find(([, template]) => id in template.Resources)?.[0]
    const base = operationsOf(NETWORK_ENTRIES.base.routes)
    const routeKeys = threeOfType('AWS::ApiGatewayV2::Route').map(
      ([, route]) => route.Properties.RouteKey,
    )

    expect(
      Object.entries(threeFunctions)
        .filter(([, fn]) => fn.network === 'base')
        .map(([name]) => name)
        .sort(),
    ).toEqual(base.map((operation) => functionName(operation.name, 'base')).sort())
    for (const operation of base) {
      const name = functionName(operation.name, 'base')
      expect(routeKeys).toContain(`${operation.method} ${operationPath(operation.name, 'base')}`)
      expect(stackOf(`${name[0]?.toUpperCase()}${name.slice(1)}LambdaFunction`)).toBe('BaseStack')
    }
    // Every function but one network's routes now serves three, each with its settings.
    for (const [id, fn] of threeOfType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect({ id, ...variables }).toMatchObject({
        id,
        NETWORKS: THREE,
        BASE_RPC_URL_PARAMETER: '/wallet-backend/traced/base-rpc-url',
      })
    }
    expect(threeFunctions.getWalletBalances?.access.parameters).toEqual([
      'jwtSecret',
      'ethereumRpcUrl',
      'altchainRpcUrl',
      'baseRpcUrl',
    ])
    expect(threeFunctions.quoteBase?.access.parameters).toEqual(['baseRpcUrl'])
  })

  it(`leaves every stack room for a WebSocket API (${WEBSOCKET_API_RESOURCES} resources) under ${STACK_LIMIT}, as with two networks`, () => {
    const two = resourceCounts(stacks)
    const counts = resourceCounts(three)

    for (const [stack, count] of Object.entries(counts)) {
      expect({ stack, count }).toEqual({
        stack,
        count: expect.toSatisfy((n: number) => n + WEBSOCKET_API_RESOURCES <= STACK_LIMIT),
      })
    }
    // The third network adds its stack (one resource in the root) and nothing to the others.
    const { root, BaseStack, ...others } = counts
    const { root: twoRoot, ...twoOthers } = two
    expect(root).toBe((twoRoot ?? 0) + 1)
    expect(BaseStack).toBe(10 * operationsOf(NETWORK_ENTRIES.base.routes).length)
    expect(others).toEqual(twoOthers)
  })

  it("keeps every function's environment under Lambda's 4 KB", () => {
    const sizes = threeOfType('AWS::Lambda::Function').map(([, fn]) => environmentBytes(fn))

    expect(sizes.length).toBe(Object.keys(threeFunctions).length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LAMBDA_ENVIRONMENT_BYTES)
  })

  it('traces every function and lets each role write traces', () => {
    const lambdas = threeOfType('AWS::Lambda::Function')
    expect(lambdas.length).toBe(Object.keys(threeFunctions).length)
    for (const [, fn] of lambdas) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' })
    }
    // The functions' roles; CodeDeploy's own role traces nothing.
    const functionRoles = threeOfType('AWS::IAM::Role').filter(([, role]) =>
      JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    )
    expect(functionRoles).toHaveLength(lambdas.length)
    for (const [, role] of functionRoles) {
      expect(JSON.stringify(role.Properties.Policies)).toContain(
        '"Action":["xray:PutTraceSegments","xray:PutTelemetryRecords"]',
      )
    }
  })
})
