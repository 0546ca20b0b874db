import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { median } from './stats'

/** Where the bench's `npm start` bundles, so removing its bundles touches no other stack's. */
const BUILD_FOLDER = join('.test-output', 'bench-start')
const REUSED_LINE = /functions unchanged since the last bundling, bundles reused/

export interface StartupRun {
  /** From the spawn until it prints ready (loading the script included). */
  ms: number
  /** Whether it reused the bundles of an earlier start (or bundled every function). */
  reused: boolean
  /** The 1-minute load average when it started: the machine is shared. */
  loadAverage: number
}

/**
 * Runs `npm start`'s script in its own process (on free ports), as a user would, and returns
 * the milliseconds until it reports ready; then stops it with SIGTERM and waits for the exit.
 * `rebundle` removes its bundles first, as on a fresh clone or after an edit.
 */
export function measureStartup({ rebundle = false } = {}): Promise<StartupRun> {
  if (rebundle) rmSync(BUILD_FOLDER, { recursive: true, force: true })
  return new Promise((resolve, reject) => {
    const loadAverage = loadavg()[0] ?? 0
    const started = performance.now()
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'lib/local/start.ts', '--free-ports'],
      {
        env: { ...process.env, OFFLINE_BUILD_FOLDER: BUILD_FOLDER },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let readyAfter: number | undefined
    let reused = false
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (REUSED_LINE.test(line)) reused = true
      if (readyAfter === undefined && line.startsWith('Local stack ready')) {
        readyAfter = performance.now() - started
        child.kill('SIGTERM')
      }
    })
    child.on('exit', () =>
      readyAfter === undefined
        ? reject(new Error('the local stack did not start'))
        : resolve({ ms: readyAfter, reused, loadAverage }),
    )
  })
}

/** One start that bundles every function, then `runs` that reuse those bundles. */
export async function measureStartups(runs: number): Promise<StartupRun[]> {
  const results = [await measureStartup({ rebundle: true })]
  for (let run = 0; run < runs; run += 1) results.push(await measureStartup())
  return results
}

export function startupSection(results: StartupRun[]): string[] {
  const describe = (runs: StartupRun[]) =>
    `median ${(median(runs.map((run) => run.ms)) / 1000).toFixed(1)} s of ${runs.length} ` +
    `(${runs.map((run) => `${(run.ms / 1000).toFixed(1)} s at load ${run.loadAverage.toFixed(1)}`).join(', ')})`
  const reused = results.filter((run) => run.reused)
  const bundled = results.filter((run) => !run.reused)
  return [
    '## Local stack start-up',
    '',
    '`npm start` as run (DynamoDB Local, two devnets with the DEX and catalog, seeding, ' +
      'serverless offline answering), from the spawn until it prints ready, which includes ' +
      'loading the script (the figure it prints does not); each with the 1-minute load average ' +
      'of the shared machine when it started.',
    '',
    ...(reused.length > 0
      ? [`- the bundles of an earlier start reused (nothing changed): ${describe(reused)};`]
      : []),
    ...(bundled.length > 0
      ? [
          `- every function bundled (its bundles removed first, as on a fresh clone): ${describe(bundled)}.`,
        ]
      : []),
    '',
  ]
}
