import type { NetworkName } from '../../lib/networkNames'
import type { ReferenceAnswer, ReferenceSplit } from './bruteForce'
import type { CaseVerdict } from './compareQuote'
import { lower } from './poolTypes'
import type { QuoteAnswer } from './quoteService'

// The figures issue 33's closing note asks for, per network: cases; equal, better and worse net
// of gas against the brute force; worse by more than 1 bps (the bar); the worst; 5xx, other
// non-200 answers, legs not summing to amountOut, the raw shortfall at the largest size, and
// routes whose re-pricing is not their amountOut or whose legs do not take the query's input.

/** A case as a person reproduces it: the state, the pair, the size, the query. */
export interface CaseName {
  network: NetworkName
  /** 0: the devnet as copied; 1..: after that many rounds of seeded trades. */
  state: number
  seed?: number
  blockNumber: bigint
  from: string
  to: string
  /** Whole units of the input, as the query's `amount`. */
  amount: string
  query: Record<string, string | number>
}

export interface ServiceSummary {
  status: number
  amountOut?: string
  routes?: string[]
  error?: string
}

export interface CaseRecord extends CaseName {
  verdict: CaseVerdict
  reference: { net: string; amountOut: string; rawBest: string; routes: string[] }
  service: ServiceSummary
}

/** A case no route can fill (every path pays 0): only a 5xx or a claimed amount misses. */
export interface UnfillableRecord extends CaseName {
  unfillable: true
  service: ServiceSummary
}

export interface NetworkTally {
  cases: number
  /** Of `cases`: every path pays 0 (not in equal, better or worse). */
  unfillable: number
  equal: number
  better: number
  worse: number
  failsNet: number
  worstBps: number
  worstCase?: string
  /** How far the service got ahead of the brute force at most (the reference's weakness). */
  bestBps: number
  bestCase?: string
  status5xx: number
  statusOther: number
  legsMismatch: number
  rawChecked: number
  failsRaw: number
  repricedDiffers: number
  inputMismatch: number
}

export const newTally = (): NetworkTally => ({
  cases: 0,
  unfillable: 0,
  equal: 0,
  better: 0,
  worse: 0,
  failsNet: 0,
  worstBps: 0,
  bestBps: 0,
  status5xx: 0,
  statusOther: 0,
  legsMismatch: 0,
  rawChecked: 0,
  failsRaw: 0,
  repricedDiffers: 0,
  inputMismatch: 0,
})

export const describeCase = (name: CaseName) =>
  `${name.network} state ${name.state}${name.seed === undefined ? '' : ` (seed ${name.seed})`} block ${name.blockNumber}: ${name.amount} ${name.from} → ${name.to}`

/** One line per case that misses the bar: what the service answered against the reference. */
export function describeMiss(record: CaseRecord | UnfillableRecord): string {
  if ('unfillable' in record) {
    return `${describeCase(record)}: nothing can be bought, yet status ${record.service.status}, amountOut ${record.service.amountOut}`
  }
  const { verdict, service, reference } = record
  const answer =
    service.status === 200
      ? `amountOut ${service.amountOut} via ${service.routes?.join(' + ')}`
      : `status ${service.status} (${service.error})`
  return (
    `${describeCase(record)}: net ${verdict.netBps} bps` +
    (verdict.legsMismatch ? ', legs ≠ amountOut' : '') +
    (verdict.routeRepricedDiffers ? `, route re-priced at ${verdict.repriced}` : '') +
    (verdict.inputMismatch ? ", legs' input ≠ the query's" : '') +
    (verdict.failsRaw ? `, raw ${verdict.rawBps ?? -10_000} bps` : '') +
    `; service ${answer}; reference ${reference.amountOut} (net ${reference.net}) via ${reference.routes.join(' + ')}`
  )
}

const routesOf = (split: ReferenceSplit) =>
  split.legs.map((leg) => `${leg.amountIn} via ${leg.path.key} → ${leg.amountOut}`)

function serviceSummary(answer: QuoteAnswer): ServiceSummary {
  return {
    status: answer.status,
    amountOut: answer.result?.amountOut,
    error: answer.error,
    routes: (answer.result?.route ?? []).map(
      (leg) =>
        `${leg.hops[0]?.amountIn} via ${leg.hops.map((hop) => lower(hop.pool)).join('>')} → ${leg.hops[leg.hops.length - 1]?.amountOut}`,
    ),
  }
}

export function caseRecord(
  name: CaseName,
  verdict: CaseVerdict,
  reference: ReferenceAnswer,
  answer: QuoteAnswer,
): CaseRecord {
  return {
    ...name,
    verdict,
    reference: {
      net: reference.bestNet.net.toString(),
      amountOut: reference.bestNet.amountOut.toString(),
      rawBest: reference.bestRaw.amountOut.toString(),
      routes: routesOf(reference.bestNet),
    },
    service: serviceSummary(answer),
  }
}

/**
 * Counts a case no route can fill; only a 5xx or a claimed amount (nobody can pay it) misses.
 * Returns the record of a miss.
 */
export function tallyUnfillable(
  tally: NetworkTally,
  name: CaseName,
  answer: QuoteAnswer,
): UnfillableRecord | undefined {
  tally.cases += 1
  tally.unfillable += 1
  if (answer.status >= 500) tally.status5xx += 1
  const claims = answer.result !== undefined && BigInt(answer.result.amountOut) > 0n
  return answer.status >= 500 || claims
    ? { ...name, unfillable: true, service: serviceSummary(answer) }
    : undefined
}

/** Counts a case; true when it misses the bar. */
export function tallyCase(tally: NetworkTally, record: CaseRecord): boolean {
  const { verdict } = record
  tally.cases += 1
  if (verdict.status >= 500) tally.status5xx += 1
  else if (verdict.status !== 200) tally.statusOther += 1
  if (verdict.serviceNet !== undefined) {
    if (verdict.serviceNet === verdict.referenceNet) tally.equal += 1
    else if (verdict.serviceNet > verdict.referenceNet) tally.better += 1
    else tally.worse += 1
  } else tally.worse += 1
  if (verdict.failsNet) tally.failsNet += 1
  if (verdict.netBps < tally.worstBps) {
    tally.worstBps = verdict.netBps
    tally.worstCase = describeCase(record)
  }
  if (verdict.netBps > tally.bestBps) {
    tally.bestBps = verdict.netBps
    tally.bestCase = describeCase(record)
  }
  if (verdict.legsMismatch) tally.legsMismatch += 1
  if (verdict.rawBps !== undefined) tally.rawChecked += 1
  if (verdict.failsRaw) tally.failsRaw += 1
  if (verdict.routeRepricedDiffers) tally.repricedDiffers += 1
  if (verdict.inputMismatch) tally.inputMismatch += 1
  return (
    verdict.failsNet ||
    verdict.failsRaw ||
    verdict.legsMismatch ||
    verdict.routeRepricedDiffers ||
    verdict.inputMismatch ||
    verdict.status >= 500
  )
}

const bps = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} bps`

/** The per-network table, in Markdown. */
export function formatTable(tallies: ReadonlyMap<NetworkName, NetworkTally>): string {
  const rows = [...tallies].map(([network, t]) =>
    [
      network,
      t.cases,
      t.unfillable,
      t.equal,
      t.better,
      t.worse,
      t.failsNet,
      bps(t.worstBps),
      t.status5xx,
      t.statusOther,
      t.legsMismatch,
      `${t.failsRaw} of ${t.rawChecked}`,
      t.repricedDiffers,
      t.inputMismatch,
    ].join(' | '),
  )
  return [
    '| network | cases | unfillable | equal | better | worse | worse > 1 bps | worst | 5xx | other non-200 | legs ≠ amountOut | raw > 1 bps short at 50 % | route re-priced ≠ amountOut | legs’ input ≠ query’s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n')
}
