import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

// `npm start` as a user meets it: in a clone of the commit measured (its node_modules linked, as
// `npm ci` would have made them), first as a fresh clone starts it (no solc cache, no bundles),
// then again (the bundles of the first start reused); each on a quiet machine and beside two CPU
// hogs (`yes > /dev/null`, stopped by their PIDs). From the spawn until it prints ready (loading
// the script included, which the figure it prints leaves out), and until the price history it
// fills once the API answers is filled.

const READY = 'Local stack ready'
const HISTORY_FILLED = /^price history filled/
/** Past this, a start that has not filled its history is stopped and the run counts as failed. */
const RUN_LIMIT_MS = 600_000

export type StartKind = 'first' | 'again'
export type Condition = 'quiet' | 'two hogs'

export interface StartupRun {
  kind: StartKind
  condition: Condition
  /** From the spawn until it printed ready. */
  readyMs: number
  /** From the spawn until it printed that the price history was filled. */
  historyMs: number
  /** The 1-minute load average when it started: the machine is shared. */
  loadAverage: number
}

/** A clone of HEAD in a folder of its own, with the repository's node_modules linked into it. */
function cloneOfHead(): string {
  const folder = mkdtempSync(join(tmpdir(), 'bench-clone-'))
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
  execFileSync('git', ['clone', '--quiet', '--no-checkout', resolve('.'), folder])
  execFileSync('git', ['-C', folder, 'checkout', '--quiet', '--detach', commit])
  symlinkSync(resolve('node_modules'), join(folder, 'node_modules'), 'dir')
  return folder
}

/** What a start leaves behind that a fresh clone has not: the solc cache and the bundles. */
function forgetStarts(clone: string): void {
  for (const made of ['.cache', '.esbuild-offline', '.data']) {
    rmSync(join(clone, made), { recursive: true, force: true })
  }
}

/** Two `yes > /dev/null`, stopped by their own PIDs. */
function startHogs(): () => void {
  const hogs: ChildProcess[] = [0, 1].map(() => spawn('yes', [], { stdio: 'ignore' }))
  return () => {
    for (const hog of hogs) if (hog.pid !== undefined) process.kill(hog.pid, 'SIGTERM')
  }
}

/** One `npm start -- --free-ports` in `clone`, stopped with SIGTERM once its history is filled. */
function runStart(clone: string, kind: StartKind, condition: Condition): Promise<StartupRun> {
  return new Promise((done, fail) => {
    const loadAverage = loadavg()[0] ?? 0
    const started = performance.now()
    const env: NodeJS.ProcessEnv = { ...process.env }
    delete env.OFFLINE_BUILD_FOLDER
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'lib/local/start.ts', '--free-ports'],
      { cwd: clone, env, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const limit = setTimeout(() => child.kill('SIGTERM'), RUN_LIMIT_MS)
    let readyMs: number | undefined
    let historyMs: number | undefined
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (readyMs === undefined && line.startsWith(READY)) readyMs = performance.now() - started
      if (historyMs === undefined && HISTORY_FILLED.test(line)) {
        historyMs = performance.now() - started
        child.kill('SIGTERM')
      }
    })
    child.on('exit', () => {
      clearTimeout(limit)
      if (readyMs === undefined || historyMs === undefined) {
        fail(new Error(`npm start (${kind}, ${condition}) did not get ready and fill its history`))
      } else {
        done({ kind, condition, readyMs, historyMs, loadAverage })
      }
    })
  })
}

/**
 * For each condition, a fresh clone's first start, then `runs` starts again; all in one clone of
 * HEAD, removed afterwards.
 */
export async function measureStartups(runs: number): Promise<StartupRun[]> {
  const clone = cloneOfHead()
  const results: StartupRun[] = []
  try {
    for (const condition of ['quiet', 'two hogs'] as const) {
      forgetStarts(clone)
      const stopHogs = condition === 'two hogs' ? startHogs() : () => {}
      try {
        results.push(await runStart(clone, 'first', condition))
        for (let run = 0; run < runs; run += 1) {
          results.push(await runStart(clone, 'again', condition))
        }
      } finally {
        stopHogs()
      }
    }
  } finally {
    rmSync(clone, { recursive: true, force: true })
  }
  return results
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The middle run, or the mean of the two middle ones: a few runs, so not the lower of two. */
function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const half = Math.floor(sorted.length / 2)
  const upper = sorted[half] ?? Number.NaN
  return sorted.length % 2 === 1 ? upper : ((sorted[half - 1] ?? upper) + upper) / 2
}

export function startupSection(results: StartupRun[]): string[] {
  const rows = (['quiet', 'two hogs'] as const).flatMap((condition) =>
    (['first', 'again'] as const).flatMap((kind) => {
      const runs = results.filter((run) => run.kind === kind && run.condition === condition)
      if (runs.length === 0) return []
      const each = runs.map((run) => `${seconds(run.readyMs)} (load ${run.loadAverage.toFixed(1)})`)
      return [
        `| ${kind === 'first' ? "a fresh clone's first start" : 'a start again'} | ${condition} | ` +
          `${runs.length} | ${seconds(median(runs.map((run) => run.readyMs)))} | ${each.join(', ')} | ` +
          `${seconds(median(runs.map((run) => run.historyMs)))} |`,
      ]
    }),
  )
  return [
    '## Local stack start-up',
    '',
    '`npm start` in a clone of the commit measured, its node_modules linked (what `npm ci` makes; ' +
      'not timed): a fresh clone\u2019s first start (no solc cache, no bundles), then starts again ' +
      '(the bundles reused); on the machine as it was, and beside two CPU hogs (`yes > /dev/null`). ' +
      'Ready: from the spawn until it prints `Local stack ready` (the API answers; loading the ' +
      'script included). History: until it prints that the price history, filled once the API ' +
      'answers, is filled. Each run with the 1-minute load average when it started.',
    '',
    '| start | machine | runs | ready, median | ready, each run | history filled, median |',
    '| --- | --- | ---: | ---: | --- | ---: |',
    ...rows,
  ]
}
