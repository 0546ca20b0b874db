import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/**
 * Runs `npm start`'s script in its own process (on free ports), as a user would, and returns
 * the milliseconds until it reports ready; then stops it with SIGTERM and waits for the exit.
 */
export function measureStartup(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'lib/local/start.ts', '--free-ports'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let readyAfter: number | undefined
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (readyAfter === undefined && line.startsWith('Local stack ready')) {
        readyAfter = performance.now() - started
        child.kill('SIGTERM')
      }
    })
    child.on('exit', () =>
      readyAfter === undefined
        ? reject(new Error('the local stack did not start'))
        : resolve(readyAfter),
    )
  })
}
