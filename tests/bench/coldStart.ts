import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { median } from './stats'

// Loads a bundle in a fresh Node process and reports how long `require` took, as Lambda's
// init phase would (without the runtime's own start).
const PROBE = `
const started = process.hrtime.bigint()
require(process.argv[1])
process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6))
`

export function loadTimeMs(bundlePath: string, runs = 5): number {
  const samples = Array.from({ length: runs }, () =>
    Number(
      execFileSync(process.execPath, ['-e', PROBE, resolve(bundlePath)], { encoding: 'utf8' }),
    ),
  )
  return median(samples)
}
