import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { ANVIL_DEPLOYER_PRIVATE_KEY } from '../../../lib/local/deployDex'
import { descendants, isRunning, stillRunningAfter } from '../../support/processTree'

const READY_LINE = 'Local stack ready'
// Above the stack's own limits (engines 30 s, offline 240 s, plus deploying and seeding), so a
// slow start fails with the stack's message naming the phase, not a bare test timeout.
const START_TIMEOUT_MS = 600_000
const children: ChildProcess[] = []
const servers: Server[] = []

/**
 * `npm start` as a user runs it. Its serverless offline builds into a folder of its own, so it
 * never rewrites a bundle the suite's own offline is loading; NODE_OPTIONS stays with vitest.
 */
function npmStart(...args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OFFLINE_BUILD_FOLDER: join('.test-output', 'offline-start'),
  }
  delete env.NODE_OPTIONS
  const child = spawn('npm', ['start', ...(args.length > 0 ? ['--', ...args] : [])], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  const stdout: string[] = []
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const lines = createInterface({ input: child.stdout })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const ready = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      stdout.push(line)
      if (line.startsWith(READY_LINE)) resolve()
    })
    void exited.then((code) =>
      reject(new Error(`npm start exited with ${code} before it was ready:\n${stderr}`)),
    )
  })
  // A run meant to fail never becomes ready; that is no unhandled rejection.
  ready.catch(() => {})
  return { child, stdout, stderr: () => stderr, ready, exited }
}

afterEach(async () => {
  // Only a failed test leaves one running; SIGTERM lets it stop what it started.
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
  }
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  )
})

describe('npm start', () => {
  it(
    'prints one line per phase until it listens, and SIGTERM stops every process it started',
    async () => {
      const run = npmStart('--free-ports')
      await run.ready
      const started = descendants(Number(run.child.pid))

      // npm's own banner and offline's request lines aside, the phases in order.
      const phases = run.stdout.filter(
        (line) => line !== '' && !line.startsWith('>') && !line.startsWith('[offline]'),
      )
      expect(phases[0]).toMatch(/^ports \d+, \d+, \d+, \d+, \d+ free$/)
      expect(phases.slice(1, 3).sort()).toEqual([
        expect.stringMatching(/^DynamoDB Local on :\d+ … ready \(\d+\.\d s\)$/),
        expect.stringMatching(/^anvil ethereum :\d+ \/ altchain :\d+ … ready \(\d+\.\d s\)$/),
      ])
      expect(phases.slice(3, 8)).toEqual([
        expect.stringMatching(/^DEX and token zoo deployed \(ethereum, altchain\) \(\d+\.\d s\)$/),
        expect.stringMatching(/^table seeded \(2 networks, \d+ projects, demo data; \d+ prices/),
        'bundling functions for serverless offline …',
        expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+ \(\d+\.\d s\)$/),
        expect.stringMatching(/^Local stack ready in \d+\.\d s$/),
      ])
      // node, java, two anvils, serverless offline and its esbuild at least.
      expect(started.length).toBeGreaterThanOrEqual(6)
      expect(started.filter(isRunning)).toEqual(started)

      run.child.kill('SIGTERM')

      expect(await run.exited).toBe(0)
      expect(await stillRunningAfter(started, 30_000)).toEqual([])
      const printed = `${run.stdout.join('\n')}\n${run.stderr()}`
      expect(printed).not.toContain(ANVIL_DEPLOYER_PRIVATE_KEY.slice(2))
    },
    START_TIMEOUT_MS,
  )

  it('names a taken default port with the --free-ports hint and starts nothing', async () => {
    // A socket that accepts and never answers, on serverless offline's default port; if another
    // program holds 3000 already, npm start must name it just the same.
    const server = createServer(() => {})
    servers.push(server)
    await new Promise<void>((resolve) => {
      server.once('error', () => resolve())
      server.listen({ host: '127.0.0.1', port: 3000 }, resolve)
    })

    const run = npmStart()

    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain(
      'port 3000 on 127.0.0.1 is already in use: serverless offline (HTTP API) needs it\n',
    )
    expect(run.stderr()).toContain(
      'Stop what holds it, or let the OS pick every port: npm start -- --free-ports\n',
    )
    // The check runs before anything starts: no phase line, not even the ports line.
    expect(run.stdout.filter((line) => line !== '' && !line.startsWith('>'))).toEqual([])
  })
})
