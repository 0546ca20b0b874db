import type { NetworkName } from '../../lib/networkNames'
import type { CaseRecord, UnfillableRecord } from './referenceTally'

/**
 * The cases in which the service still nets more than 1 bps less than the brute force, measured
 * on the suite's fresh devnets and the seeded states of base seed 3300 (every run starts from
 * the same states: tests/support/freshDevnets.ts). Each is a split of 4 routes over pools its
 * routes share, two or more route swaps from every candidate the search prices (docs/tests.md):
 * issue 33's bar is not met on these. The list is exact both ways: a new shortfall, or one
 * further short than written here, fails the test, and so does one the search now meets (then
 * strike it from the list).
 */
export const KNOWN_SHORTFALLS: Readonly<Record<NetworkName, readonly KnownShortfall[]>> = {
  ethereum: [
    { state: 2, from: 'LINK', to: 'WBTC', amount: '162351.131549994001679173', netBps: -4.48 },
    { state: 3, from: 'USDC', to: 'LINK', amount: '6104567.861047', netBps: -3.24 },
  ],
  altchain: [
    { state: 0, from: 'CAKE', to: 'DOGE', amount: '1069441.001445319971784018', netBps: -11.4 },
    { state: 0, from: 'DOGE', to: 'CAKE', amount: '16720193.44924112', netBps: -17.76 },
    { state: 1, from: 'DOGE', to: 'BTCB', amount: '15230080.61850585', netBps: -1.31 },
    { state: 3, from: 'CAKE', to: 'DOGE', amount: '1117904.982200402553079412', netBps: -17.55 },
    { state: 3, from: 'ALT', to: 'DOGE', amount: '7446.056983765807559974', netBps: -13.21 },
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
