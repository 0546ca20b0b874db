import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { type Address, createPublicClient, erc20Abi, formatUnits } from 'viem'
import { NATIVE_COIN } from '../../lib/constants'
import type { DexDeployment } from '../../lib/local/deployDex'
import { type LocalStack, servedDeployment } from '../../lib/local/localStack'
import type { NetworkName } from '../../lib/networkNames'
import { devnetTransport } from '../support/devnetTransport'
import type { DeclaredFunction } from '../../lib/openapi/declaredFunctions'
import { httpEvent } from '../support/httpEvent'
import { bundle } from './bundleSizes'
import { percentile } from './stats'

// Issue 33's CPU target, measured on the inputs its generative test quotes: every ordered pair
// of the catalog's tokens and the native coin, at 5 log-spaced sizes from 1e-6 to 50 % of the
// input token's deepest pool (as tests/reference/runNetwork.ts sizes them), on the fresh devnet.
// CPU is the process's own (user + system) from the handler's call to its answer: the node and
// DynamoDB Local are processes of their own, so waiting on them costs none.

const OUTPUT_DIR = join('.test-output', 'bench')

const run = promisify(execFile)

const SHARES = [
  1e-6,
  1e-6 ** 0.75 * 0.5 ** 0.25,
  1e-6 ** 0.5 * 0.5 ** 0.5,
  1e-6 ** 0.25 * 0.5 ** 0.75,
  0.5,
]

const TYPES = ['exactIn', 'exactOut'] as const

export interface QuoteCpuFigure {
  network: NetworkName
  /** exactIn: `amount` the share of token0's deepest pool; exactOut: of token1's (§10.1). */
  type: 'exactIn' | 'exactOut'
  /** The size's share of the input token's deepest pool, or undefined for all sizes together. */
  share?: number
  quotes: number
  answered: number
  cpu: { p50: number; p90: number; p99: number; max: number }
  wall: { p50: number; p99: number }
}

interface Token {
  address: Address
  /** What the pools hold: the wrapped coin for the native one. */
  pooled: Address
  symbol: string
  decimals: number
}

async function catalogOf(dex: DexDeployment) {
  const client = createPublicClient({ transport: devnetTransport(dex.rpcUrl) })
  const listed = [
    dex.usdStablecoin,
    ...[...dex.tokens, ...dex.v3OnlyTokens, ...dex.zoo].map((token) => token.address),
  ]
  const tokens: Token[] = await Promise.all(
    listed.map(async (address) => {
      const [symbol, decimals] = await Promise.all([
        client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
        client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
      ])
      return { address, pooled: address, symbol, decimals }
    }),
  )
  tokens.push({ address: NATIVE_COIN, pooled: dex.wrappedNative, symbol: 'native', decimals: 18 })
  // Each token's deepest holding among the pools the deployment seeded (V2 pairs and V3 pools,
  // each recorded with its two tokens).
  const deepest = new Map<Address, bigint>()
  await Promise.all(
    [...dex.pairs, ...dex.v3.pools].flatMap((pool) =>
      [pool.token0, pool.token1].map(async (token) => {
        const balance = await client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [pool.address],
        })
        const key = token.toLowerCase() as Address
        if (balance > (deepest.get(key) ?? 0n)) deepest.set(key, balance)
      }),
    ),
  )
  return {
    tokens,
    deepestOf: (token: Token) => deepest.get(token.pooled.toLowerCase() as Address) ?? 0n,
  }
}

// The probe: a fresh Node process holding nothing but the function's bundle, as a Lambda
// container does (a heap of its own: no test engine's garbage to collect), sends every case once
// to warm it, then once measured, and writes the figures to a file.
const PROBE = `
const { readFileSync, writeFileSync } = require('node:fs')
const { handler } = require(process.argv[1])
const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 30000 }
;(async () => {
  for (const { event } of cases) await handler(event, context)
  const samples = []
  for (const { share, type, event } of cases) {
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const response = await handler(event, context)
    const wall = performance.now() - started
    const cpu = process.cpuUsage(cpuBefore)
    const body = JSON.parse(response.body)
    samples.push({
      share,
      type,
      cpu: (cpu.user + cpu.system) / 1000,
      wall,
      status: response.statusCode,
      query: event.queryStringParameters,
      routes: body.result && body.result.route ? body.result.route.length : undefined,
    })
  }
  writeFileSync(process.argv[3], JSON.stringify(samples))
})()
`

interface Sample {
  share: number
  type: 'exactIn' | 'exactOut'
  cpu: number
  wall: number
  status: number
  query: Record<string, string>
  routes?: number
}

/**
 * Each quote of the grid sent once to warm the function, then once measured, in a process of its
 * own running the function's deployed bundle. Returns per network one row for all sizes and one
 * per size.
 */
export async function measureQuoteCpu(
  functions: DeclaredFunction[],
  stackEnv: Record<string, string>,
  deployments: LocalStack['deployments'],
): Promise<QuoteCpuFigure[]> {
  const figures: QuoteCpuFigure[] = []
  mkdirSync(OUTPUT_DIR, { recursive: true })
  for (const network of ['ethereum', 'altchain'] as const) {
    const dex = servedDeployment(deployments, network)
    const name = `quote${network[0]?.toUpperCase()}${network.slice(1)}`
    const fn = functions.find((candidate) => candidate.name === name)
    if (!fn) throw new Error(`serverless.yml declares no ${name}`)
    const { outfile } = await bundle(fn.name, fn.entry)
    const { tokens, deepestOf } = await catalogOf(dex)
    // Exact input: a share of token0's deepest pool in; exact output: of token1's out.
    const cases = TYPES.flatMap((type) =>
      tokens.flatMap((from) =>
        tokens
          .filter((to) => to.address !== from.address)
          .flatMap((to) =>
            SHARES.map((share) => {
              const side = type === 'exactIn' ? from : to
              const amount = (deepestOf(side) * BigInt(Math.round(share * 1e12))) / 10n ** 12n
              return {
                share,
                type,
                event: httpEvent({
                  route: name,
                  queryStringParameters: {
                    amount: formatUnits(amount > 0n ? amount : 1n, side.decimals),
                    address0: from.address,
                    decimals0: String(from.decimals),
                    address1: to.address,
                    decimals1: String(to.decimals),
                    ...(type === 'exactOut' && { type }),
                  },
                }),
              }
            }),
          ),
      ),
    )
    const casesFile = join(OUTPUT_DIR, `quoteCpu.${network}.cases.json`)
    const samplesFile = join(OUTPUT_DIR, `quoteCpu.${network}.json`)
    writeFileSync(casesFile, JSON.stringify(cases))
    await run(process.execPath, ['-e', PROBE, resolve(outfile), casesFile, samplesFile], {
      env: {
        PATH: process.env.PATH ?? '',
        ...stackEnv,
        // One function per network: its NETWORK names it (serverless.yml sets it on each).
        NETWORK: network,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        LOG_LEVEL: 'INFO',
      },
      maxBuffer: 256 * 1024 * 1024,
    })
    const samples = JSON.parse(readFileSync(samplesFile, 'utf8')) as Sample[]
    // Every quote's figures, the most CPU first: what the slowest have in common.
    writeFileSync(
      samplesFile,
      JSON.stringify(
        [...samples].sort((a, b) => b.cpu - a.cpu),
        null,
        1,
      ),
    )
    const row = (type: Sample['type'], taken: Sample[], share?: number): QuoteCpuFigure => {
      const cpu = taken.map((sample) => sample.cpu)
      const wall = taken.map((sample) => sample.wall)
      return {
        network,
        type,
        ...(share !== undefined && { share }),
        quotes: taken.length,
        answered: taken.filter((sample) => sample.status === 200).length,
        cpu: {
          p50: percentile(cpu, 0.5),
          p90: percentile(cpu, 0.9),
          p99: percentile(cpu, 0.99),
          max: Math.max(...cpu),
        },
        wall: { p50: percentile(wall, 0.5), p99: percentile(wall, 0.99) },
      }
    }
    for (const type of TYPES) {
      const ofType = samples.filter((sample) => sample.type === type)
      figures.push(row(type, ofType))
      for (const share of SHARES) {
        figures.push(
          row(
            type,
            ofType.filter((sample) => sample.share === share),
            share,
          ),
        )
      }
    }
  }
  return figures
}
