// `npm run bench`: bundle sizes, cold-start load times, warm request timings and the local stack's
// start-up, written to BENCHMARKS.md section by section, each with the commit and the load it was
// measured at (tests/bench/benchmarksFile.ts). Figures, not assertions: tests assert only counts
// and sizes.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { servedDeployment, startLocalStack } from '../../lib/local/localStack'
import { logger } from '../../lib/logger'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import {
  BENCHMARKS_FILE,
  provenanceNow,
  type Section,
  type SectionId,
  section,
  writeSections,
} from './benchmarksFile'
import { bundleSection } from './bundleSection'
import { type ColdTarget, coldPathSection, measureColdPath } from './coldPath'
import { measureMarkets } from './markets'
import { measureQuoteCpu, type QuoteCpuFigure } from './quoteCpu'
import { measureRequests, requestsSection } from './requests'
import { measureTradeScale, tradeScaleSection } from './scale'
import { ms } from './stats'
import { measureStartups, startupSection } from './startup'
import { measureTrading } from './trading'
import { SSM_TEST_CREDENTIALS, startSsmStandIn } from '../support/ssmStandIn'
import { uniqueClient } from '../support/uniqueClient'
import type { HttpEvent } from '../../lib/http/types'

const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3)
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 9)
// The functions whose cold path is measured: a table read, authenticated table reads, a quote
// and a swap (USDC to LINK, the router approved, a fresh Idempotency-Key per request).
// `npm run bench -- --cold-only` measures just these and prints them.
// Each with its floor: the trade lookup (of a pending trade: its receipt is asked for) and the
// balances read a node as well as the table; the quote writes its client's budget window first.
const COLD_FUNCTIONS: Record<string, ColdTarget['floor']> = {
  listNetworks: 'sdk',
  getProjectDetails: 'sdk',
  listTrades: 'sdk',
  getTradeById: 'both',
  getWalletBalances: 'both',
  quoteEthereum: 'metered',
  swapTokensEthereum: 'sdk',
}

// A deployed stage reads the RPC URLs from SSM at the first chain call (issue 13): the quote is
// measured once more that way, against the SSM stand-in of the tests (on loopback, so the round
// trip costs less than a real one in the region does).
const RPC_URL_PARAMETER = '/wallet-backend/bench/ethereum-rpc-url'
const SSM_REGION = 'us-east-1'

/** `event` as sent from a client address no other request shares. */
function fromNewClient(event: HttpEvent): HttpEvent {
  const copy = structuredClone(event)
  copy.requestContext = {
    ...copy.requestContext,
    http: { ...copy.requestContext.http, sourceIp: uniqueClient() },
  }
  return copy
}

async function coldTargets(
  functions: ReturnType<typeof declaredFunctions>,
  deployments: Awaited<ReturnType<typeof startLocalStack>>['deployments'],
  ssmEndpoint: string,
): Promise<ColdTarget[]> {
  const { routeRequests } = await import('../support/routeRequests')
  const routes = await routeRequests(deployments)
  const targets = Object.entries(COLD_FUNCTIONS).map(([name, floor]): ColdTarget => {
    const fn = functions.find((candidate) => candidate.name === name)
    const routeKey = fn?.route && `${fn.route.method} ${fn.route.path}`
    const route = routes.find((candidate) => candidate.routeKey === routeKey)
    const { event: same, freshEvent } = route ?? {}
    // Each request from a client of its own: the per-client budgets (300 RPC calls a minute)
    // would otherwise answer the quote's later runs 429.
    const event = freshEvent ?? (same && (() => fromNewClient(same)))
    if (!event) throw new Error(`no repeatable request for ${name}`)
    return { name, floor, event }
  })
  const quote = targets.find((target) => target.name === 'quoteEthereum')
  if (!quote) return targets
  return [
    ...targets,
    {
      ...quote,
      label: 'quoteEthereum, RPC URL from SSM',
      env: {
        ETHEREUM_RPC_URL: undefined,
        ETHEREUM_RPC_URL_PARAMETER: RPC_URL_PARAMETER,
        SSM_ENDPOINT: ssmEndpoint,
        AWS_REGION: SSM_REGION,
        AWS_ACCESS_KEY_ID: SSM_TEST_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: SSM_TEST_CREDENTIALS.secretAccessKey,
      },
    },
  ]
}

/** The cold path of COLD_FUNCTIONS against `stack`, with an SSM stand-in for the variant. */
async function coldPath(
  functions: ReturnType<typeof declaredFunctions>,
  stack: Awaited<ReturnType<typeof startLocalStack>>,
) {
  const ssm = await startSsmStandIn(
    { [RPC_URL_PARAMETER]: servedDeployment(stack.deployments, 'ethereum').rpcUrl },
    SSM_REGION,
  )
  try {
    const targets = await coldTargets(functions, stack.deployments, ssm.endpoint)
    return await measureColdPath(functions, targets, stack.env, COLD_RUNS)
  } finally {
    await ssm.close()
  }
}

/** The cold path alone: `npm run bench -- --cold-only` rewrites its section of BENCHMARKS.md. */
async function coldOnly(): Promise<void> {
  const functions = declaredFunctions()
  const stack = await startLocalStack({ ports: 'free' })
  logger.setLogLevel('SILENT')
  try {
    const at = provenanceNow()
    const figures = await coldPath(functions, stack)
    const written = section('cold-path', at, coldPathSection(figures, COLD_RUNS))
    writeSections([written])
    console.log(written.lines.join('\n'))
  } finally {
    await stack.stop()
  }
}

function marketsSection(markets: Awaited<ReturnType<typeof measureMarkets>>): string[] {
  return [
    '## Price history on a year of data',
    '',
    `A demo project's history backfilled from the devnet's year (${markets.backfill.symbol}: ` +
      `${markets.backfill.buckets} buckets from ${markets.backfill.boundaries} boundaries) in ` +
      `${ms(markets.backfill.ms)}; then each history route warm, in-process.`,
    '',
    '| route | p50 | p99 | runs | DynamoDB calls per request | items read per call | points |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...markets.history.map(
      (figure) =>
        `| ${figure.route} | ${ms(figure.p50)} | ${ms(figure.p99)} | ${figure.runs} | ` +
        `${figure.dynamoCalls.toFixed(1)} | ${figure.itemsPerCall.toFixed(1)} | ${figure.points} |`,
    ),
    '',
    `Price sampler over the demo catalog (${markets.sampler.projects} projects, both devnets): ` +
      `${ms(markets.sampler.msPerRun)} per run, ${ms(markets.sampler.msPerProject)} per project.`,
  ]
}

function tradingSection(trading: Awaited<ReturnType<typeof measureTrading>>): string[] {
  return [
    '## Quotes and swaps on the ethereum devnet',
    '',
    'Warm, in-process. JSON-RPC calls per request, and the HTTP round trips carrying them (viem ' +
      'batches calls issued together). The swap signs USDC→LINK; the first one also approves.',
    '',
    '| route | p50 | p99 | runs | RPC calls | round trips | calls |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...trading.map(
      (figure) =>
        `| ${figure.route} | ${ms(figure.p50)} | ${ms(figure.p99)} | ${figure.runs} | ` +
        `${figure.rpcCalls} | ${figure.rpcRoundTrips} | ${figure.methods} |`,
    ),
  ]
}

function quoteCpuSection(figures: QuoteCpuFigure[]): string[] {
  const size = (share?: number) =>
    share === undefined
      ? 'all sizes'
      : `${Number((share * 100).toPrecision(2))} % of its deepest pool`
  return [
    '## Quote CPU, warm, in-process',
    '',
    'Issue 33\u2019s target (warm quote p50 \u2264 10 ms and p99 \u2264 30 ms of CPU, in-process), on the ' +
      'inputs of its generative test: every ordered pair of the catalog\u2019s tokens and the native ' +
      'coin at 5 log-spaced sizes from 1e-6 to 50 % of the input token\u2019s deepest pool (exact ' +
      'output, DECISIONS \u00a710.1: of the output token\u2019s, `amount` then what arrives), on the fresh ' +
      'devnets. Each function runs its deployed bundle in a Node process of its own (as in a Lambda container), sends each quote once to warm (not counted), then once measured. CPU is the ' +
      'process\u2019s own (user + system) from the call to the answer; the node and DynamoDB Local are ' +
      'processes of their own, so waiting on them costs none. Wall time for comparison.',
    '',
    '| network | type | sizes | quotes | answered 200 | CPU p50 | CPU p90 | CPU p99 | CPU max | wall p50 | wall p99 |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.map(
      (figure) =>
        `| ${figure.network} | ${figure.type} | ${size(figure.share)} | ${figure.quotes} | ${figure.answered} | ` +
        `${ms(figure.cpu.p50)} | ${ms(figure.cpu.p90)} | ${ms(figure.cpu.p99)} | ${ms(figure.cpu.max)} | ` +
        `${ms(figure.wall.p50)} | ${ms(figure.wall.p99)} |`,
    ),
  ]
}

/** Runs `measure` with the commit and load it started at, as the section `id` of the file. */
async function measured<Figures>(
  id: SectionId,
  measure: () => Promise<Figures>,
  lines: (figures: Figures) => string[],
): Promise<Section> {
  const at = provenanceNow()
  return section(id, at, lines(await measure()))
}

async function main(): Promise<void> {
  const functions = declaredFunctions()
  console.log(`bundling ${functions.length} functions...`)
  const sections: Section[] = [
    await measured(
      'bundles',
      () => bundleSection(functions),
      (l) => l,
    ),
  ]

  console.log('measuring the local stack start-up (a clone, quiet and beside two hogs)...')
  sections.push(await measured('startup', () => measureStartups(STARTUP_RUNS), startupSection))

  console.log('measuring requests in-process...')
  const stack = await startLocalStack({ ports: 'free' })
  logger.setLogLevel('SILENT')
  try {
    console.log('measuring the cold path (load + first request) in fresh processes...')
    sections.push(
      await measured(
        'cold-path',
        () => coldPath(functions, stack),
        (figures) => coldPathSection(figures, COLD_RUNS),
      ),
    )
    sections.push(
      await measured(
        'warm-requests',
        () => measureRequests(RUNS, stack.deployments),
        requestsSection,
      ),
    )
    console.log('measuring a wallet with many trades...')
    sections.push(await measured('trade-scale', () => measureTradeScale(RUNS), tradeScaleSection))
    console.log('measuring quotes and swaps...')
    sections.push(
      await measured('trading', () => measureTrading(RUNS, stack.deployments), tradingSection),
    )
    console.log("measuring quote CPU over the generative test's grid...")
    sections.push(
      await measured(
        'quote-cpu',
        () => measureQuoteCpu(functions, stack.env, stack.deployments),
        quoteCpuSection,
      ),
    )
    console.log('measuring price history and the sampler...')
    sections.push(await measured('price-history', () => measureMarkets(RUNS), marketsSection))
  } finally {
    await stack.stop()
  }
  console.log('measuring the deposit indexer at mainnet density (engines of its own)...')
  // A process of its own: the indexer's modules read their settings (table, RPC URL) once.
  sections.push(
    await measured(
      'indexer',
      () =>
        Promise.resolve(
          execFileSync(
            process.execPath,
            ['--import', 'tsx', 'tests/bench/indexer.ts', '--section-only'],
            { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
          ),
        ),
      (printed) => printed.trimEnd().split('\n'),
    ),
  )
  console.log('measuring the WebSocket fan-out (a stack of its own, 1,000 connections)...')
  // A process of its own too: it starts a stack of its own and points the fan-out at it.
  sections.push(
    await measured(
      'ws-fan-out',
      () =>
        Promise.resolve(
          execFileSync(
            process.execPath,
            ['--import', 'tsx', 'tests/bench/fanOut.ts', '--section-only'],
            { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
          ),
        ),
      (printed) => printed.trimEnd().split('\n'),
    ),
  )
  writeSections(sections)
  console.log(readFileSync(BENCHMARKS_FILE, 'utf8'))
}

/** `npm run bench -- --quote-cpu-only`: the quote CPU grid alone, into its section. */
async function quoteCpuOnly(): Promise<void> {
  const functions = declaredFunctions()
  const stack = await startLocalStack({ ports: 'free' })
  logger.setLogLevel('SILENT')
  try {
    const written = await measured(
      'quote-cpu',
      () => measureQuoteCpu(functions, stack.env, stack.deployments),
      quoteCpuSection,
    )
    writeSections([written])
    console.log(written.lines.join('\n'))
  } finally {
    await stack.stop()
  }
}

/** `npm run bench -- --startup-only`: the start-up runs alone, into their section. */
async function startupOnly(): Promise<void> {
  const written = await measured('startup', () => measureStartups(STARTUP_RUNS), startupSection)
  writeSections([written])
  console.log(written.lines.join('\n'))
}

;(process.argv.includes('--cold-only')
  ? coldOnly()
  : process.argv.includes('--quote-cpu-only')
    ? quoteCpuOnly()
    : process.argv.includes('--startup-only')
      ? startupOnly()
      : main()
).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
