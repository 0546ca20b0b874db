import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { NetworkName } from '../../lib/networkNames'
import { REFERENCE_OUTPUT_DIR } from './ownDevnet'
import { describeMiss, formatTable } from './referenceTally'
import type { NetworkRun } from './runNetwork'

// The generative test's output: the per-network table (printed once, and kept in Markdown), and
// every case that missed the bar with what reproduces it, in JSON, under .test-output/reference/.

/** Cases printed per network, the worst first; the JSON file holds them all. */
const PRINTED_CASES = 5

export interface RunMeta {
  /** The fixed states' base seed, and the run's own (REFERENCE_SEED replays it). */
  fixedSeed: number
  runSeed: number
  seeds: Record<string, number[]>
  /** CPU seconds: this file's process, and each devnet copy's node. */
  cpuSeconds: Record<string, number>
  wallSeconds: number
}

/** CPU seconds a process has used so far (Linux /proc; undefined elsewhere). */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    // utime and stime, in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

const json = (value: unknown) =>
  JSON.stringify(
    value,
    (_, field: unknown) => (typeof field === 'bigint' ? field.toString() : field),
    2,
  )

const percent = (share: number) => `${(100 * share).toFixed(1)} %`

/** Which states moved V2 pairs apart from their V3 pools, and how far, as measured. */
function movedLine(run: NetworkRun): string {
  const states = run.states.filter((state) => state.moved.length > 0)
  if (states.length === 0) return 'no V2 pair moved apart from its V3 pool'
  return states
    .map(({ state, moved }) => {
      const measured = moved.map((pair) => pair.measured).sort((a, b) => a - b)
      return `state ${state}: ${moved.length} V2 pairs moved from their V3 pools by ${percent(measured[0] ?? 0)} to ${percent(measured[measured.length - 1] ?? 0)}`
    })
    .join('; ')
}

/** Writes the report files and returns the text to print. */
export async function writeReport(
  runs: ReadonlyMap<NetworkName, NetworkRun>,
  meta: RunMeta,
): Promise<string> {
  const table = formatTable(new Map([...runs].map(([network, run]) => [network, run.tally])))
  const lines = [
    'Quotes against the brute force (issue 33, DECISIONS §9.3), net of gas under one gas model:',
    '',
    table,
    '',
    ...[...runs].map(
      ([network, run]) =>
        `${network}: ${run.pools.v2} V2 pairs (fee ${run.v2FeeBps.join('/')} bps, measured) and ${run.pools.v3} V3 pools; ` +
        `transfer fees ${JSON.stringify(run.transferFeeBps)}; SDK checked against the chain ${run.checks.checks} times, ` +
        `${run.checks.mismatches.length} mismatches; ${run.splitsPriced} splits priced; ` +
        `worst ${run.tally.worstCase ?? '-'}; service ahead at most ${run.tally.bestBps} bps`,
    ),
    ...[...runs].map(([network, run]) => `${network}: ${movedLine(run)}`),
    `run seed ${meta.runSeed} (REFERENCE_SEED=${meta.runSeed} replays it); seeds ${JSON.stringify(meta.seeds)}; CPU ${JSON.stringify(meta.cpuSeconds)} s; wall ${meta.wallSeconds.toFixed(0)} s`,
    ...[...runs.values()].flatMap((run) =>
      [...run.failing]
        .sort(
          (a, b) =>
            ('verdict' in a ? a.verdict.netBps : -1e9) - ('verdict' in b ? b.verdict.netBps : -1e9),
        )
        .slice(0, PRINTED_CASES)
        .map((record) => `misses: ${describeMiss(record)}`),
    ),
    `all cases that miss, and how to replay them: ${join(REFERENCE_OUTPUT_DIR, 'quoteOptimality.json')}`,
  ]
  await mkdir(REFERENCE_OUTPUT_DIR, { recursive: true })
  await writeFile(join(REFERENCE_OUTPUT_DIR, 'quoteOptimality.md'), `${table}\n`)
  await writeFile(
    join(REFERENCE_OUTPUT_DIR, 'quoteOptimality.json'),
    json({
      replay:
        'REFERENCE_REPLAY_DIR=.test-output/reference REFERENCE_SEED=<meta.runSeed> npx vitest run --config tests/vitest.config.mts tests/reference/quoteOptimality.test.ts (starts from the kept <network>.state.gz instead of the suite devnets)',
      meta,
      networks: Object.fromEntries(runs),
    }),
  )
  return lines.join('\n')
}
