import '../support/env'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_NETWORKS } from '../../lib/networks'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import { type BundleReport, bundle, bundleReferences } from '../bench/bundleSizes'

// What each function carries, from the esbuild metafile of its bundle: deterministic, so tested
// here; load times are measured by `npm run bench` (BENCHMARKS.md).

const KB = 1024
// Budgets a little above today's sizes (BENCHMARKS.md), so that growth is a decision.
const BUDGET = {
  // 530 KB before the routing engine (issue 33: water-filling, float model, exact candidates):
  // swapTokensEthereum, the largest, measured 545.8 KB with it; 588,337 bytes (574.5 KB) with
  // issue 40's preview (the simulation, its decoding and SequenceProbe's runtime); 606,869 bytes
  // (592.6 KB) with issue 40's exact output (its search, pool math and calls) and permits.
  largestHttp: 610 * KB,
  medianHttp: 300 * KB,
  // 320 KB before the routing engine: swapTokensEthereum measured 333,990 bytes without the SDK
  // with it, 336,775 with the network table's third entry and its operation modules (issue 34),
  // 352,341 with issue 39's metering (lib/http/rpcBudget.ts) and issue 40's fitted gas model,
  // 376,490 with issue 40's preview, 394,949 with its exact output and permits.
  largestHttpWithoutSdk: 398 * KB,
  // 95 KB before the seven client-signing routes (issue 16), which carry viem like the swaps:
  // with them the median HTTP function is one of the chain functions (103 KB measured; 93 KB
  // once the routing engine landed). Over a default stage's functions (the interface's two
  // networks): a third network's six chain routes would move it to 158 KB with no bundle grown.
  medianHttpWithoutSdk: 110 * KB,
  dynamoClientOnly: 210 * KB,
}

// Each network's routes (a quote, swaps, transfer, prepare, submit): all talk to its node.
const NETWORK_ROUTES = declaredFunctions().filter((fn) => fn.network !== undefined)

// Functions that talk to a node; no other function may carry viem's clients or actions.
const CHAIN_FUNCTIONS = new Set([
  'loginWallet', // EIP-1271 signatures are checked by a call to the wallet contract
  ...NETWORK_ROUTES.map((fn) => fn.name),
  'getWalletBalances',
  'getApproval', // reads the router's allowance and simulates the approvals
  'getTradeByHash', // a pending trade is settled from its receipt when looked up
  'getTradeById',
  'samplePrices',
  'syncMarkets',
  'reconcileTrades',
  'indexDeposits',
])
// Functions that never read or write the table.
const TABLELESS_FUNCTIONS = new Set([
  'generateMnemonic',
  'createWallet',
  'recoverWalletFromMnemonic',
  'recoverWalletFromKey',
  'getOpenApiDocument',
  'getDocsPage',
  'getDocsAsset',
])
// The login routes issue tokens without verifying any.
// jose signs tokens; verifying them is node:crypto's HMAC (lib/auth/tokens.ts), so only these carry it.
const TOKEN_ISSUERS = new Set([
  'loginWallet',
  'loginAccount',
  'refreshWalletSession',
  'refreshAccountSession',
])

// Loads a bundle in a fresh Node process with every way out to the network recording instead
// of connecting, and prints what it tried: a cold start must make no call before a request.
const NETWORK_PROBE = `
const net = require('node:net')
const dns = require('node:dns')
const attempts = []
net.Socket.prototype.connect = function () { attempts.push('socket'); return this }
dns.lookup = (...args) => { attempts.push('dns'); args.at(-1)(new Error('no network at import')) }
globalThis.fetch = async () => { attempts.push('fetch'); throw new Error('no network at import') }
require(process.argv[1])
setTimeout(() => process.stdout.write(JSON.stringify(attempts)), 50)
`

async function networkAttemptsAtImport(bundlePath: string, network?: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-e', NETWORK_PROBE, resolve(bundlePath)],
    {
      encoding: 'utf8',
      // A network operation's function is told its network, as Lambda tells it (NETWORK).
      env: { ...process.env, LOG_LEVEL: 'SILENT', ...(network && { NETWORK: network }) },
    },
  )
  return JSON.parse(stdout) as string[]
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0

describe('function bundles', () => {
  const functions = declaredFunctions()
  const reports = new Map<string, BundleReport>()
  const attemptsAtImport = new Map<string, string[]>()
  let dynamoClientOnly: BundleReport | undefined

  beforeAll(async () => {
    // One at a time: esbuild is parallel inside, and the machine has two cores.
    for (const fn of functions) reports.set(fn.name, await bundle(fn.name, fn.entry))
    dynamoClientOnly = (await bundleReferences()).find(
      (report) => report.name === '(DynamoDB client only)',
    )
    // Each bundle loaded in a process of its own, one after the other: 47 Node starts, which on a
    // loaded machine outlast a test's timeout, so they run here, under the hook's bound.
    for (const fn of functions) {
      const outfile = reports.get(fn.name)?.outfile
      if (outfile) {
        attemptsAtImport.set(fn.name, await networkAttemptsAtImport(outfile, fn.network))
      }
    }
    // A bound, not a measure: about 30 s here, but over 5 minutes on a 2-core machine under load.
  }, 900_000)

  it('carry viem clients and actions only where the function talks to a node', () => {
    const carrying = functions.filter((fn) => reports.get(fn.name)?.carries.viemClient)
    expect(carrying.map((fn) => fn.name).sort()).toEqual([...CHAIN_FUNCTIONS].sort())
  })

  it('carry jose only where tokens are issued', () => {
    const carrying = functions.filter((fn) => reports.get(fn.name)?.carries.jose)
    expect(carrying.map((fn) => fn.name).sort()).toEqual([...TOKEN_ISSUERS].sort())
  })

  it('carry the AWS SDK only where the function uses the table or SSM, and only its lean parts', () => {
    for (const fn of functions) {
      const report = reports.get(fn.name)
      expect({ fn: fn.name, sdk: report?.carries.awsSdk }).toEqual({
        fn: fn.name,
        // Chain functions read their RPC URLs from SSM on deployed stages: the quotes carry the
        // request signer (about 33 KB) for that alone.
        sdk: !TABLELESS_FUNCTIONS.has(fn.name) || CHAIN_FUNCTIONS.has(fn.name),
      })
      // The SSM client, the full credential chain and its STS/SSO clients, Powertools
      // Parameters: each replaced by something smaller (docs/performance.md, "Bundles").
      for (const absent of [
        '@aws-sdk/client-ssm',
        '@aws-sdk/credential-provider-ini',
        '@aws-sdk/credential-provider-sso',
        '@aws-sdk/nested-clients',
        '@aws-lambda-powertools/parameters',
      ]) {
        expect(report?.modules, `${fn.name} carries ${absent}`).not.toContain(absent)
      }
      expect(report?.carries.zodClassic, `${fn.name} carries classic zod`).toBe(false)
    }
  })

  it('make no network call when they load', () => {
    const attempts = Object.fromEntries(
      functions.map((fn) => [fn.name, attemptsAtImport.get(fn.name)]),
    )
    expect(attempts).toEqual(Object.fromEntries(functions.map((fn) => [fn.name, []])))
  })

  it('stay within their size budgets', () => {
    // A default stage's functions: each further network adds its routes, chain functions all,
    // which would move the median without any bundle growing (checked apart below).
    const http = functions
      .filter((fn) => fn.http)
      .filter((fn) => fn.network === undefined || DEFAULT_NETWORKS.includes(fn.network as never))
      .map((fn) => reports.get(fn.name))
      .filter((report): report is BundleReport => report !== undefined)
    const sizes = http.map((report) => report.bytes)
    const withoutSdk = http.map((report) => report.bytes - report.awsSdkBytes)

    expect(http.length).toBeGreaterThan(40)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BUDGET.largestHttp)
    expect(median(sizes)).toBeLessThanOrEqual(BUDGET.medianHttp)
    expect(Math.max(...withoutSdk)).toBeLessThanOrEqual(BUDGET.largestHttpWithoutSdk)
    expect(median(withoutSdk)).toBeLessThanOrEqual(BUDGET.medianHttpWithoutSdk)
    expect(dynamoClientOnly?.bytes).toBeLessThanOrEqual(BUDGET.dynamoClientOnly)
  })

  it("weigh each network's routes as ethereum's, within 1 KB", () => {
    // Each is its operation's route (lib/networkRoutes/) for another network: the same code.
    const others = NETWORK_ROUTES.filter((fn) => fn.network !== 'ethereum')
    // quoteBase's twin is quoteEthereum: the operation, then the network's capitalized name.
    const twin = (fn: { name: string; network?: string }) =>
      `${fn.name.slice(0, fn.name.length - (fn.network ?? '').length)}Ethereum`
    const pairs = others.flatMap((fn) => {
      const ethereum = reports.get(twin(fn))
      const own = reports.get(fn.name)
      // swapNative and prepareSwapNative have no ethereum twin (ethereum has no native route).
      return ethereum && own ? [{ name: fn.name, delta: Math.abs(own.bytes - ethereum.bytes) }] : []
    })

    expect(pairs.length).toBeGreaterThanOrEqual(others.length - 2)
    expect(pairs.filter(({ delta }) => delta > KB)).toEqual([])
  })
})
