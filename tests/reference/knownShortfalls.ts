import type { NetworkName } from '../../lib/networkNames'
import type { CaseRecord, UnfillableRecord } from './referenceTally'

/**
 * The cases in which the service still nets more than 1 bps less than the brute force, measured
 * on the suite's fresh devnets and the fixed states after them (states 0-2: every run starts from
 * the same states, tests/support/freshDevnets.ts; state 3 takes the run's own seed, whose misses
 * are printed as findings, not listed). On states 0-1 none since the search's pool-level candidates (lib/routing/search/poolFlow.ts;
 * the 7 listed before, 4-route splits over shared pools, now net 0.1 to 13 bps more than the
 * brute force). On state 2, V2 pairs moved 5-40 % from their V3 pools (issue 42), two on altchain,
 * findings about lib/routing that issue 42 leaves open: the same two routes as the brute force's
 * split, shared otherwise (1,287 of a 0-decimal token where 1,288 can be had); and a 4-route split
 * that misses two of the brute force's routes. The list is exact both ways: a new shortfall, or one
 * further short than written here, fails the test, and so does one the search now meets (then
 * strike it from the list).
 */
export const KNOWN_SHORTFALLS: Readonly<Record<NetworkName, readonly KnownShortfall[]>> = {
  ethereum: [],
  altchain: [
    { state: 2, from: 'XVS', to: 'WHOLE', amount: '5854.550964123007788393', netBps: -7.76 },
    { state: 2, from: 'CAKE', to: 'BTCB', amount: '1065442.293738140721653932', netBps: -7.01 },
  ],
  base: [],
}

export interface KnownShortfall {
  state: number
  from: string
  to: string
  amount: string
  /** How far short of the brute force's best net it was measured (bps, negative). */
  netBps: number
}

interface CaseKey {
  state: number
  from: string
  to: string
  amount: string
}

const describeKey = (key: CaseKey) => `state ${key.state}: ${key.amount} ${key.from} → ${key.to}`

/**
 * The same case: state, pair, and the same of the 5 log-spaced sizes. A size is a fraction of the
 * input token's deepest pool, whose depth differs in its last digits from run to run (the seeded
 * history's timestamps); log-spaced over six decades, sizes of one pair are far further apart than 0.1 %.
 */
const sameCase = (a: CaseKey, b: CaseKey) =>
  a.state === b.state &&
  a.from === b.from &&
  a.to === b.to &&
  Math.abs(Number(a.amount) / Number(b.amount) - 1) < 1e-3

export function unexpectedMisses(
  network: NetworkName,
  failing: readonly (CaseRecord | UnfillableRecord)[],
  describe: (record: CaseRecord | UnfillableRecord) => string,
): string[] {
  const known = KNOWN_SHORTFALLS[network]
  const seen = new Set<KnownShortfall>()
  const unexpected: string[] = []
  for (const record of failing) {
    const shortfall = known.find((candidate) => sameCase(candidate, record))
    const { verdict } = record as Partial<CaseRecord>
    const withinKnown =
      shortfall !== undefined &&
      verdict !== undefined &&
      verdict.status === 200 &&
      !verdict.legsMismatch &&
      !verdict.routeRepricedDiffers &&
      !verdict.inputMismatch &&
      verdict.netBps >= shortfall.netBps - 0.01 &&
      (verdict.rawBps === undefined || verdict.rawBps >= shortfall.netBps - 0.01)
    if (shortfall) seen.add(shortfall)
    if (!withinKnown) unexpected.push(describe(record))
  }
  for (const shortfall of known) {
    if (!seen.has(shortfall)) {
      unexpected.push(
        `${network} ${describeKey(shortfall)}: now meets the bar; strike it from KNOWN_SHORTFALLS`,
      )
    }
  }
  return unexpected
}
