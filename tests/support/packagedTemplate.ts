import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, expect } from 'vitest'
import { type PackagedStacks, readPackagedStacks, type Resource } from './packagedStacks'
import type { SourceMapPayload } from './tableActionsOfBundle'

// The deployed stage's template as `serverless package` writes it (tests/serverless/*): the
// settings an operator exports, the CLI run without AWS credentials, and one package of stage
// prod shared by every file of a test run that reads it (packaging takes a minute or more).

export type { Resource } from './packagedStacks'

export interface FunctionState {
  handler: string
  network?: string
  environment?: Record<string, string>
  events: Array<{
    httpApi?: { method: string; path: string }
    schedule?: unknown
    websocket?: unknown
    stream?: unknown
  }>
  package: { artifact: string }
  access: { table?: string[]; parameters?: string[] }
}

export interface Statement {
  Effect: string
  Action: string[]
  Resource: unknown
  Condition?: Record<string, Record<string, string[]>>
}

// The settings a deployed stage requires (custom.requiredSettings), as an operator exports them.
export const ALARM_TOPIC = 'arn:aws:sns:us-east-1:123456789012:wallet-ops'
export const REQUIRED_SETTINGS = {
  SIWE_DOMAIN: 'app.example.com',
  SIWE_URI: 'https://app.example.com',
  ALARM_TOPIC_ARN: ALARM_TOPIC,
  ALLOWED_ORIGINS: 'https://app.example.com, https://admin.example.com:8443',
}

// Without the suite stack's NETWORKS (it serves every network of the table): a stage serves the
// default two unless a test names others.
export const cliEnv = () => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && name !== 'NETWORKS'),
  ),
  AWS_EC2_METADATA_DISABLED: 'true',
  SLS_TELEMETRY_DISABLED: '1',
})

// The CLI as `npx serverless` runs it: plain Node (22, as the suite), no tsx over it;
// serverless.yml loads its TypeScript itself (lib/serverless/plugin.cjs, esbuild.config.cjs).
export const SERVERLESS_CLI = 'node_modules/serverless/bin/serverless.js'

// Bounds, not measures: a package takes about a minute here, over 5 under heavy load.
const PACKAGE_TIMEOUT_MS = 840_000
export const PACKAGE_HOOK_TIMEOUT_MS = 900_000

/** `serverless package` of `stage` into `dir`, with the required settings and `env` over them. */
export async function packageStage(
  stage: string,
  dir: string,
  env: Record<string, string> = {},
): Promise<void> {
  try {
    await packageOnce(stage, dir, env)
  } catch (error) {
    // Once, on a loaded CI run, the CLI failed a minute in with nothing on stderr (the same
    // package took 18 s on the run before and 12 s alone after). What it printed is kept, and
    // the package is made once more, so the template's content is still what is tested.
    console.warn(`serverless package --stage ${stage} failed once; again. ${String(error)}`)
    await packageOnce(stage, dir, env)
  }
}

async function packageOnce(stage: string, dir: string, env: Record<string, string>) {
  // A build folder of its own: the run's files package stages at the same time.
  const buildFolder = `.esbuild-package-${stage}-${process.pid}-${randomUUID().slice(0, 8)}`
  try {
    await promisify(execFile)(
      process.execPath,
      [SERVERLESS_CLI, 'package', '--stage', stage, '--package', dir],
      {
        env: { ...cliEnv(), ...REQUIRED_SETTINGS, PACKAGE_BUILD_FOLDER: buildFolder, ...env },
        timeout: PACKAGE_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      },
    )
  } catch (error) {
    const { code, signal, stdout, stderr } = error as {
      code?: unknown
      signal?: unknown
      stdout?: string
      stderr?: string
    }
    const tail = (text = '') => text.trim().split('\n').slice(-15).join('\n')
    throw new Error(
      `serverless package --stage ${stage} ended with ${String(signal ?? code)}:\n` +
        `${tail(stdout)}\n${tail(stderr)}`,
      { cause: error },
    )
  } finally {
    rmSync(buildFolder, { recursive: true, force: true })
  }
}

/** A packaged stage: its folder, its stacks (and every resource of them), its functions. */
export interface PackagedTemplate {
  dir: string
  stacks: PackagedStacks
  resources: Record<string, Resource>
  functions: Record<string, FunctionState>
}

export function readPackagedTemplate(dir: string): PackagedTemplate {
  // The deployment is a root stack and nested ones (lib/serverless/stackLayout.ts): the tests of
  // what it holds read every stack's resources, references across stacks resolved.
  const stacks = readPackagedStacks(dir)
  const state = JSON.parse(readFileSync(join(dir, 'serverless-state.json'), 'utf8')) as {
    service: { functions: Record<string, FunctionState> }
  }
  return { dir, stacks, resources: stacks.flattened, functions: state.service.functions }
}

/**
 * The test run: the vitest process that forked this worker (the same for every file of one run),
 * with its start time so that a later run given the same pid is another run.
 */
function runKey(): string {
  const parent = process.ppid
  let started = ''
  try {
    // Field 22 of /proc/<pid>/stat, the 20th after the command's closing parenthesis.
    started = readFileSync(`/proc/${parent}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? ''
  } catch {
    // Not Linux: the pid alone.
  }
  return `${parent}-${started}`
}

/** Resolves once `file` exists in `folder` (watched, not polled on a timer). */
function fileAppears(folder: string, file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(folder, () => {
      if (existsSync(join(folder, file))) {
        watcher.close()
        resolve()
      }
    })
    // Written before the watch began.
    if (existsSync(join(folder, file))) {
      watcher.close()
      resolve()
    }
  })
}

/**
 * Stage prod packaged once per test run, with no AWS credentials at all (it must need neither an
 * account nor the network): the first file to ask packages it, the others wait for its outcome.
 */
async function packageProdOnce(): Promise<string> {
  const root = join(tmpdir(), `sls-package-prod-${runKey()}`)
  const dir = join(root, 'package')
  let first = true
  try {
    mkdirSync(root)
  } catch {
    first = false
  }
  // Written whole, then renamed into place: a waiter never reads it half written.
  const settle = (outcome: string) => {
    writeFileSync(join(root, 'outcome.part'), outcome)
    renameSync(join(root, 'outcome.part'), join(root, 'outcome'))
  }
  if (first) {
    try {
      await packageStage('prod', dir)
    } catch (error) {
      settle('failed')
      throw error
    }
    settle('packaged')
    return dir
  }
  await fileAppears(root, 'outcome')
  const outcome = readFileSync(join(root, 'outcome'), 'utf8')
  if (outcome !== 'packaged') throw new Error(`packaging stage prod ${outcome} in ${root}`)
  return dir
}

let prod: Promise<PackagedTemplate> | undefined

/** Stage prod as packaged, shared within the worker and across the run's files. */
export function packagedProd(): Promise<PackagedTemplate> {
  prod ??= packageProdOnce().then(readPackagedTemplate)
  return prod
}

/** A packaged stage with the questions its tests ask of it. */
export interface TemplateView extends PackagedTemplate {
  ofType(type: string): Resource[]
  /**
   * The HTTP API's resources of a type (its API, stage, routes, integrations), without the
   * WebSocket API's (tests/serverless/websocketStacks.test.ts reads those).
   */
  ofHttpApi(type: string): Resource[]
  /** A function's source map, an artifact of its own beside the zips (lean zips, issue 25). */
  sourceMapOf(functionName: string): SourceMapPayload
  /** The statements of a function's own role's policy. */
  statementsOf(functionName: string): Statement[]
}

/** The HTTP API itself, or a resource that names it as its API. */
function isOfHttpApi(id: string, resource: Resource): boolean {
  if (resource.Type === 'AWS::ApiGatewayV2::Api') return id === 'HttpApi'
  return JSON.stringify(resource.Properties.ApiId) === JSON.stringify({ Ref: 'HttpApi' })
}

export function viewOf(template: PackagedTemplate): TemplateView {
  const { dir, resources } = template
  return {
    ...template,
    ofType: (type) => Object.values(resources).filter((resource) => resource.Type === type),
    ofHttpApi: (type) =>
      Object.entries(resources)
        .filter(([id, resource]) => resource.Type === type && isOfHttpApi(id, resource))
        .map(([, resource]) => resource),
    sourceMapOf: (functionName) =>
      JSON.parse(
        readFileSync(join(dir, 'sourcemaps', `${functionName}.js.map`), 'utf8'),
      ) as SourceMapPayload,
    statementsOf: (functionName) => {
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
    },
  }
}

/**
 * Stage prod for the file's tests: filled in before they run (its `beforeAll`), read through the
 * returned view's fields and questions.
 */
export function useProdTemplate(): TemplateView {
  const view = {} as TemplateView
  beforeAll(async () => {
    Object.assign(view, viewOf(await packagedProd()))
  }, PACKAGE_HOOK_TIMEOUT_MS)
  return view
}

/** The actions of `statements` that start with `prefix` (a service's, as `dynamodb:`), sorted. */
export const grantedActions = (statements: Statement[], prefix: string) =>
  statements.flatMap((s) => s.Action.filter((action) => action.startsWith(prefix))).sort()

export interface Alarm {
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

// CloudFormation takes 500 resources a stack. A WebSocket API for push, measured by packaging one
// (three routes, $connect, $disconnect and $default, each its own function): 33 resources, 2 of
// them shared (the API and its stage) and 31 with its functions (each function 10 with its route,
// integration and invoke permission, and the API's deployment). docs/operations.md, Stacks.
export const STACK_LIMIT = 500
export const WEBSOCKET_API_RESOURCES = 33

/** A function's environment as Lambda counts it against its 4 KB: names and values. */
export function environmentBytes(fn: Resource): number {
  const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> })
    ?.Variables
  return Object.entries(variables ?? {}).reduce(
    (sum, [name, value]) => sum + name.length + (typeof value === 'string' ? value.length : 0),
    0,
  )
}
export const LAMBDA_ENVIRONMENT_BYTES = 4096
