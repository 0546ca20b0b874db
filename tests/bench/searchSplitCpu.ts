import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Address } from 'viem'
import { type Pool, otherToken, sameToken } from '../../lib/routing/pools/pool'
import type { RouteGasUnits } from '../../lib/config'
import { fastSpotRate } from '../../lib/routing/search/fastModel'
import type { GasPriceInToken1 } from '../../lib/routing/gas/gasModel'
import { enumeratePaths, type Hop } from '../../lib/routing/paths/enumeratePaths'
import { priceSplit } from '../../lib/routing/search/priceSplit'
import { searchSplit } from '../../lib/routing/search/searchSplit'
import { percentile } from './stats'

// searchSplit alone, offline, on the calls a reference replay made (issue 33): each call's
// pools, ends, amount and gas price as the service had them, dumped by searchSplitDump.config.mts
// (`<dump>` the calls, `<dump>.pools` the pools they name, bigints as "123n"). Prints
// searchSplit's CPU per call (the least of `--repeat` runs, after one to warm the JIT):
// p50/p90/p99 over the calls where a split may pay by the bound searchSplit had before issue
// 33's Lagrange bound (the input at the best first-unit rate beats the best single by more than
// a second route's gas: the set the search's CPU was first measured over), over every call, and
// over those whose dumped answer split; and every call whose exact net differs from the dumped
// one. SEARCH_SPLIT_BASELINE=<module> times another searchSplit too (e.g. an earlier commit's
// lib/routing copied aside), interleaved call by call so both meet the same machine load. With
// `<report.json>` (the dumped run's .test-output/reference/quoteOptimality.json), each case that
// missed is priced both ways: the reference's split by priceSplit on the same pools, against
// searchSplit's answer.
//   npx tsx tests/bench/searchSplitCpu.ts .test-output/searchSplit.jsonl [report.json] [--repeat N]

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

const revive = (_: string, value: Json): unknown =>
  typeof value === 'string' && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value

interface DumpedCall {
  poolIds: string[]
  tokenIn: Address
  tokenOut: Address
  through: Address[]
  amountIn: bigint
  amountOut?: bigint
  units: RouteGasUnits
  gasPrice: GasPriceInToken1
  maxRoutes?: number
  allowed?: string[]
  net?: bigint
  routes?: unknown[]
}

const args = process.argv.slice(2)
const repeatAt = args.indexOf('--repeat')
const repeat = repeatAt >= 0 ? Number(args[repeatAt + 1]) : 3
const [dumpFile, reportFile] = args.filter(
  (arg, index) => !arg.startsWith('--') && (repeatAt < 0 || index !== repeatAt + 1),
)
if (!dumpFile) throw new Error('usage: searchSplitCpu.ts <dump.jsonl> [report.json] [--repeat N]')

const pools = new Map<string, Pool>()
for (const line of readFileSync(`${dumpFile}.pools`, 'utf8').split('\n')) {
  if (!line) continue
  const { id, pool } = JSON.parse(line, revive) as { id: string; pool: Pool }
  pools.set(id, pool)
}
const calls = readFileSync(dumpFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line, revive) as DumpedCall)

const parametersOf = (call: DumpedCall) => {
  const callPools = call.poolIds.map((id) => {
    const pool = pools.get(id)
    if (!pool) throw new Error(`pool ${id} not dumped`)
    return pool
  })
  const allowed = call.allowed && new Set(call.allowed)
  return {
    pools: callPools,
    tokenIn: call.tokenIn,
    tokenOut: call.tokenOut,
    through: call.through,
    amountIn: call.amountIn,
    units: call.units,
    gasPrice: call.gasPrice,
    ...(call.maxRoutes !== undefined && { maxRoutes: call.maxRoutes }),
    ...(allowed && { allowHop: (hop: Hop) => allowed.has(`${hop.pool.address}:${hop.tokenIn}`) }),
  }
}

/** searchSplit's bound before the Lagrange bound (splitMayPay at 0c4c290): the set the CPU is over. */
function splitMayPayBefore(call: DumpedCall): boolean {
  if (call.maxRoutes === 1) return false
  const parameters = parametersOf(call)
  const single = searchSplit({ ...parameters, maxRoutes: 1 })
  if (!single) return false
  const paths = enumeratePaths(parameters)
  let bestRate = 0
  for (const path of paths) {
    const rate = path.reduce((product, hop) => product * fastSpotRate(hop.pool, hop.tokenIn), 1)
    if (rate > bestRate) bestRate = rate
  }
  const { units, gasPrice } = call
  const price =
    gasPrice.denominator === 0n ? 0 : Number(gasPrice.numerator) / Number(gasPrice.denominator)
  const out = Number(single.amountOut)
  const cheapestHop = units.v2Hop < units.v3Hop ? units.v2Hop : units.v3Hop
  const secondRoute =
    Number(2n * (units.route + cheapestHop)) * price - Number(single.gasCostToken1)
  return Number(call.amountIn) * bestRate - out > Math.max(secondRoute, out * 1e-5)
}

const splitable = calls.map(splitMayPayBefore)
const bps = (ours: bigint, theirs: bigint) =>
  theirs === 0n
    ? 0
    : Number(((ours - theirs) * 10_000_000n) / (theirs < 0n ? -theirs : theirs)) / 1000

// SEARCH_SPLIT_BASELINE=<module exporting searchSplit> (e.g. a copy of an earlier commit's
// searchSplit.ts) times that one too, interleaved call by call, so both meet the same load.
type Search = typeof searchSplit
const baselinePath = process.env.SEARCH_SPLIT_BASELINE
const baseline: Search | undefined = baselinePath
  ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path given at run time
    (require(resolve(baselinePath)) as { searchSplit: Search }).searchSplit
  : undefined

// Warm the JIT on every call once, then time each call `repeat` times, keeping the least.
const nets = calls.map((call) => searchSplit(parametersOf(call))?.net)
if (baseline) calls.forEach((call) => baseline(parametersOf(call)))
const timed = (search: Search, call: DumpedCall) => {
  const parameters = parametersOf(call)
  const started = process.cpuUsage()
  search(parameters)
  const used = process.cpuUsage(started)
  return (used.user + used.system) / 1000
}
const cpu = calls.map(() => Number.POSITIVE_INFINITY)
const baselineCpu = calls.map(() => Number.POSITIVE_INFINITY)
for (let round = 0; round < repeat; round += 1) {
  calls.forEach((call, index) => {
    cpu[index] = Math.min(cpu[index] ?? Infinity, timed(searchSplit, call))
    if (baseline)
      baselineCpu[index] = Math.min(baselineCpu[index] ?? Infinity, timed(baseline, call))
  })
}
const summary = (samples: number[]) =>
  `p50 ${percentile(samples, 0.5).toFixed(2)} ms, p90 ${percentile(samples, 0.9).toFixed(2)} ms, p99 ${percentile(samples, 0.99).toFixed(2)} ms, mean ${(samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(2)} ms`
const splitCpu = cpu.filter((_, index) => splitable[index])
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(`load ${load}; ${calls.length} calls, ${splitCpu.length} where a split may pay`)
console.log(`searchSplit CPU where a split may pay: ${summary(splitCpu)}`)
console.log(`searchSplit CPU, every call: ${summary(cpu)}`)
const splitAnswers = cpu.filter((_, index) => (calls[index]?.routes?.length ?? 0) > 1)
console.log(
  `searchSplit CPU where the dumped answer split (${splitAnswers.length}): ${summary(splitAnswers)}`,
)
if (baseline) {
  const answeredSplit = (index: number) => (calls[index]?.routes?.length ?? 0) > 1
  console.log(
    `baseline where a split may pay: ${summary(baselineCpu.filter((_, index) => splitable[index]))}`,
  )
  console.log(`baseline, every call: ${summary(baselineCpu)}`)
  console.log(
    `baseline where the dumped answer split: ${summary(baselineCpu.filter((_, index) => answeredSplit(index)))}`,
  )
}

let better = 0
let worse = 0
calls.forEach((call, index) => {
  const now = nets[index]
  if (now === undefined || call.net === undefined) {
    if (now !== call.net) console.log(`call ${index}: net ${call.net} → ${now}`)
    return
  }
  if (now > call.net) better += 1
  if (now < call.net) {
    worse += 1
    console.log(
      `worse: call ${index} ${call.amountIn} ${call.tokenIn}→${call.tokenOut}: ${bps(now, call.net)} bps`,
    )
  }
})
console.log(`against the dumped nets: ${better} better, ${worse} worse`)

if (reportFile) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    networks: Record<string, { failing: FailingCase[] }>
  }
  for (const failing of Object.values(report.networks).flatMap((network) => network.failing)) {
    const amountIn = parseUnits(failing.query.amount, failing.query.decimals0)
    const native = /^0x(ee)+$/i.test(failing.query.address1)
    const index = calls.findLastIndex(
      (call) =>
        call.amountIn === amountIn &&
        call.maxRoutes === undefined &&
        !call.allowed &&
        (native || sameToken(call.tokenOut, failing.query.address1 as Address)) &&
        // The same size recurs in other states: the call that answered the service's amount.
        call.amountOut === BigInt(failing.service.amountOut),
    )
    const call = calls[index]
    if (!call) {
      console.log(`${failing.network} ${failing.state} ${failing.from}→${failing.to}: no call`)
      continue
    }
    const parameters = parametersOf(call)
    const legs = failing.reference.routes.map((route) => {
      const [amount = '', rest = ''] = route.split(' via ')
      let token: Address = call.tokenIn
      const hops = rest
        .split(' → ')[0]
        ?.split('>')
        .map((address) => {
          const pool = parameters.pools.find((candidate) =>
            sameToken(candidate.address, address as Address),
          )
          if (!pool) throw new Error(`reference pool ${address} not read by the service`)
          const tokenOut = otherToken(pool, token) as Address
          const hop = { pool, tokenIn: token, tokenOut }
          token = tokenOut
          return hop
        })
      return { hops: hops ?? [], amountIn: BigInt(amount) }
    })
    const reference = priceSplit(legs, call.units, call.gasPrice)
    const ours = nets[index] ?? 0n
    console.log(
      `${failing.network} state ${failing.state} ${failing.from}→${failing.to} ${failing.amount}: was ${bps(call.net ?? 0n, reference.net)} bps, now ${bps(ours, reference.net)} bps of the reference's split priced by priceSplit (report ${failing.verdict.netBps})${reference.exact ? '' : `; the reference's split runs past the ticks the service read (${reference.routes.flatMap((route) => route.hops.filter((hop) => !hop.exact).map((hop) => hop.pool.address)).join(', ')})`}`,
    )
  }
}

interface FailingCase {
  network: string
  state: number
  from: string
  to: string
  amount: string
  query: { amount: string; decimals0: number; address1: string }
  verdict: { netBps: number }
  reference: { routes: string[] }
  service: { amountOut: string }
}

function parseUnits(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.')
  return BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals))
}
