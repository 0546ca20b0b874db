import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { DeclaredFunction } from '../../lib/openapi/declaredFunctions'
import type { HttpEvent } from '../../lib/http/types'
import { BUNDLE_DIR, bundle } from './bundleSizes'
import { median, ms } from './stats'

const run = promisify(execFile)

// The cold path as a user meets it: a fresh Node process loads the bundle (Lambda's init), then
// the handler answers a first and a second request against the local engines. The result goes
// to stderr so that the function's own log lines (stdout, as on Lambda) cost what they cost.
const PROBE = `
const cpu0 = process.cpuUsage()
const t0 = process.hrtime.bigint()
const { handler } = require(process.argv[1])
const t1 = process.hrtime.bigint()
const [firstEvent, secondEvent] = JSON.parse(process.argv[2])
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 30000 }
;(async () => {
  const first = await handler(firstEvent, context)
  const t2 = process.hrtime.bigint()
  const cpu2 = process.cpuUsage()
  await handler(secondEvent, context)
  const t3 = process.hrtime.bigint()
  const status = first && typeof first === 'object' && 'statusCode' in first ? first.statusCode : 200
  const msOf = (a, b) => Number(b - a) / 1e6
  const cpu = (cpu2.user + cpu2.system - cpu0.user - cpu0.system) / 1000
  process.stderr.write('\\nCOLD ' + JSON.stringify({ load: msOf(t0, t1), first: msOf(t1, t2), second: msOf(t2, t3), cpu, status }))
})()
`

// The floors: nothing at all; the bare document client doing one GetItem (every table route's
// floor); a bare viem client doing one eth_blockNumber over fetch (a chain route's floor); both
// at once (the floor of a route that reads the table and a node); a budget window's UpdateItem,
// then the call (a chain route metered per client).
const FLOORS: Record<string, string> = {
  '(empty handler)': 'export const handler = async () => ({ statusCode: 200 })\n',
  '(bare SDK: one GetItem)': [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'",
    "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb'",
    'const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }))',
    'export const handler = async () => {',
    "  await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'NETWORK', sk: 'x' } }))",
    '  return { statusCode: 200 }',
    '}',
    '',
  ].join('\n'),
  '(bare viem: one call)': [
    "import { createPublicClient, http } from 'viem'",
    'const client = createPublicClient({ cacheTime: 0, transport: http(process.env.ETHEREUM_RPC_URL) })',
    'export const handler = async () => {',
    '  await client.getBlockNumber()',
    '  return { statusCode: 200 }',
    '}',
    '',
  ].join('\n'),
  '(bare SDK and viem: both at once)': [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'",
    "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb'",
    "import { createPublicClient, http } from 'viem'",
    'const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }))',
    'const client = createPublicClient({ cacheTime: 0, transport: http(process.env.ETHEREUM_RPC_URL) })',
    'export const handler = async () => {',
    "  await Promise.all([db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'NETWORK', sk: 'x' } })), client.getBlockNumber()])",
    '  return { statusCode: 200 }',
    '}',
    '',
  ].join('\n'),
  '(bare SDK and viem: an UpdateItem, then a call)': [
    "import { randomUUID } from 'node:crypto'",
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'",
    "import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb'",
    "import { createPublicClient, http } from 'viem'",
    'const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }))',
    'const client = createPublicClient({ cacheTime: 0, transport: http(process.env.ETHEREUM_RPC_URL) })',
    'export const handler = async () => {',
    '  await db.send(new UpdateCommand({',
    '    TableName: process.env.TABLE_NAME,',
    "    Key: { pk: `CLIENT#floor#${randomUUID()}`, sk: 'WINDOW#0' },",
    "    UpdateExpression: 'ADD #count :weight',",
    "    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',",
    "    ExpressionAttributeNames: { '#count': 'count' },",
    "    ExpressionAttributeValues: { ':weight': 10, ':limit': 300 },",
    '  }))',
    '  await client.getBlockNumber()',
    '  return { statusCode: 200 }',
    '}',
    '',
  ].join('\n'),
}

const FLOOR_OF = {
  sdk: '(bare SDK: one GetItem)',
  viem: '(bare viem: one call)',
  both: '(bare SDK and viem: both at once)',
  metered: '(bare SDK and viem: an UpdateItem, then a call)',
} as const

export interface ColdTarget {
  /** The function, as serverless.yml names it. */
  name: string
  /** The row's name, where a function is measured once more under another environment. */
  label?: string
  /** Its floor: table routes the SDK's, chain-only routes viem's, routes reading both both's. */
  floor: keyof typeof FLOOR_OF
  /** The request, made anew for each request sent (a swap's fresh Idempotency-Key). */
  event: () => HttpEvent
  /** Changes to the environment of this row's processes: a value replaces, undefined removes. */
  env?: Record<string, string | undefined>
}

export interface ColdFigure {
  name: string
  floor: string
  load: number
  first: number
  second: number
  loadPlusFirst: number
  ratio: number
  /** CPU time (user + system) of load + first request: steadier than wall time on a busy machine. */
  cpu: number
  cpuRatio: number
  runs: number
}

/** The NODE_OPTIONS deployed functions run with, as serverless.yml sets them (none: Lambda's). */
function deployedNodeOptions(): string {
  return (
    /\n\s+NODE_OPTIONS: ['"]?([^'"\n]*)/.exec(readFileSync('serverless.yml', 'utf8'))?.[1] ?? ''
  )
}

async function probe(outfile: string, events: unknown[], env: Record<string, string>) {
  const { stderr } = await run(
    process.execPath,
    ['-e', PROBE, resolve(outfile), JSON.stringify(events)],
    {
      env,
      maxBuffer: 16 * 1024 * 1024,
    },
  )
  const line = stderr.split('\n').find((text) => text.startsWith('COLD '))
  if (!line) throw new Error(`the probe of ${outfile} printed no result: ${stderr.slice(-500)}`)
  return JSON.parse(line.slice(5)) as {
    load: number
    first: number
    second: number
    cpu: number
    status: number
  }
}

function withChanges(
  env: Record<string, string>,
  changes: Record<string, string | undefined> = {},
): Record<string, string> {
  const changed = { ...env }
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete changed[name]
    else changed[name] = value
  }
  return changed
}

/**
 * Per function: load, first request, second request, each the median of `runs` fresh processes,
 * all targets and floors interleaved run by run so that a noisy machine weighs on every row alike;
 * the ratio is load + first request over the floor's.
 */
export async function measureColdPath(
  functions: DeclaredFunction[],
  targets: ColdTarget[],
  stackEnv: Record<string, string>,
  runs: number,
): Promise<ColdFigure[]> {
  const env = {
    PATH: process.env.PATH ?? '',
    ...stackEnv,
    // What Lambda's environment has and the local stack does not need.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    LOG_LEVEL: 'INFO',
    NODE_OPTIONS: deployedNodeOptions(),
  }
  const outfiles = new Map<string, string>()
  mkdirSync(BUNDLE_DIR, { recursive: true })
  for (const [name, source] of Object.entries(FLOORS)) {
    const entry = join(BUNDLE_DIR, `${name.replace(/[^\w]+/g, '_')}.ts`)
    writeFileSync(entry, source)
    outfiles.set(name, (await bundle(name, entry)).outfile)
  }
  for (const target of targets) {
    const fn = functions.find((candidate) => candidate.name === target.name)
    if (!fn) throw new Error(`serverless.yml declares no ${target.name}`)
    outfiles.set(target.name, (await bundle(fn.name, fn.entry)).outfile)
  }
  const rows = [
    ...Object.keys(FLOORS).map((name) => ({ name, outfile: name, event: () => ({}), env })),
    ...targets.map((target) => {
      // A network operation's function is told its network, as Lambda tells it (NETWORK).
      const { network } = functions.find((fn) => fn.name === target.name) ?? {}
      return {
        name: target.label ?? target.name,
        outfile: target.name,
        event: target.event,
        env: withChanges(network ? { ...env, NETWORK: network } : env, target.env),
      }
    }),
  ]
  const samples = new Map(
    rows.map((row) => [
      row.name,
      [] as Array<{ load: number; first: number; second: number; cpu: number }>,
    ]),
  )
  for (let index = 0; index < runs; index += 1) {
    for (const row of rows) {
      const events = [row.event(), row.event()]
      const result = await probe(outfiles.get(row.outfile) ?? '', events, row.env)
      if (result.status !== 200)
        throw new Error(`${row.name} answered ${result.status} in the cold-path bench`)
      samples.get(row.name)?.push(result)
    }
  }
  const figure = (name: string, floor: string) => {
    const taken = samples.get(name) ?? []
    const load = median(taken.map((sample) => sample.load))
    const first = median(taken.map((sample) => sample.first))
    return {
      name,
      floor,
      load,
      first,
      second: median(taken.map((sample) => sample.second)),
      loadPlusFirst: median(taken.map((sample) => sample.load + sample.first)),
      ratio: 0,
      cpu: median(taken.map((sample) => sample.cpu)),
      cpuRatio: 0,
      runs: taken.length,
    }
  }
  const sdkFloor = figure(FLOOR_OF.sdk, '—')
  const floors = [
    figure('(empty handler)', '—'),
    ...Object.values(FLOOR_OF).map((name) => figure(name, '—')),
  ]
  return [
    ...floors.map((floor) => ({
      ...floor,
      ratio: floor.loadPlusFirst / sdkFloor.loadPlusFirst,
      cpuRatio: floor.cpu / sdkFloor.cpu,
    })),
    ...targets.map((target) => {
      const floor = figure(FLOOR_OF[target.floor], '—')
      const measured = figure(target.label ?? target.name, floor.name)
      return {
        ...measured,
        ratio: measured.loadPlusFirst / floor.loadPlusFirst,
        cpuRatio: measured.cpu / floor.cpu,
      }
    }),
  ]
}

export function coldPathSection(figures: ColdFigure[], runs: number): string[] {
  return [
    '## The cold path: load + first request',
    '',
    `Each function bundled as serverless-esbuild packages it (minified, tree-shaken, the deployed ` +
      `NODE_OPTIONS: ${deployedNodeOptions() || 'none'}), loaded in a fresh Node process which then ` +
      `answers a first and a second request against DynamoDB Local and anvil; medians of ${runs} ` +
      'runs, every row interleaved run by run. The ratio is load + first request over the floor named ' +
      '(the floors\u2019 own ratios are to the bare SDK); the CPU columns are the process\u2019s CPU ' +
      'time over the same span, which other work on the machine disturbs less than wall time.',
    '',
    '| function | floor | load | first request | load + first | second request | ratio to floor | CPU, load + first | CPU ratio |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.map(
      (figure) =>
        `| ${figure.name} | ${figure.floor} | ${ms(figure.load)} | ${ms(figure.first)} | ` +
        `${ms(figure.loadPlusFirst)} | ${ms(figure.second)} | ${figure.ratio.toFixed(2)}× | ` +
        `${ms(figure.cpu)} | ${figure.cpuRatio.toFixed(2)}× |`,
    ),
    '',
    ...quoteAgainstViem(figures),
  ]
}

/**
 * Issue 33 set the quote's cold path against the lean viem floor, when a quote read only the
 * chain; since issue 32 it first meters its client in the table (one conditional UpdateItem
 * before any chain call, so a client over budget costs no RPC call), so its row's floor does that
 * and then a call; its ratio to the bare viem floor is given too.
 */
function quoteAgainstViem(figures: ColdFigure[]): string[] {
  const viem = figures.find((figure) => figure.name === FLOOR_OF.viem)
  const quotes = figures.filter((figure) => figure.name.startsWith('quote'))
  if (!viem || quotes.length === 0) return []
  return [
    'A quote meters its client in the table before any chain call (issue 32), so its floor ' +
      'writes a budget window and then calls the node; against the bare viem floor (issue ' +
      '33\u2019s target, set before the budget: 1.5\u00d7):',
    '',
    ...quotes.map(
      (figure) =>
        `- ${figure.name}: ${(figure.loadPlusFirst / viem.loadPlusFirst).toFixed(2)}\u00d7 ` +
        `(CPU ${(figure.cpu / viem.cpu).toFixed(2)}\u00d7)`,
    ),
    '',
  ]
}
