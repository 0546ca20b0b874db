import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { ANVIL_DEPLOYER_PRIVATE_KEY } from '../../../lib/local/deployDex'
import { readFileSync } from 'node:fs'
import { descendants, isRunning, stillRunningAfter } from '../../support/processTree'

const READY_LINE = 'Local stack ready'
const WAITING_FOR_BUNDLES = 'bundling functions for serverless offline …'
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
  // Not the suite stack's NETWORKS (every network of the table): npm start's own default, or
  // what the test names with --networks.
  delete env.NETWORKS
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
  const waiting: Array<{ pattern: RegExp; found: (line: string) => void }> = []
  /** The first line printed, or to be printed, that matches `pattern`. */
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const printed = stdout.find((candidate) => pattern.test(candidate))
      if (printed !== undefined) return resolve(printed)
      waiting.push({ pattern, found: resolve })
      void exited.then(() => reject(new Error(`npm start exited before printing ${pattern}`)))
    })
  const ready = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      stdout.push(line)
      for (const waiter of waiting.filter(({ pattern }) => pattern.test(line))) waiter.found(line)
      if (line.startsWith(READY_LINE)) resolve()
    })
    void exited.then((code) =>
      reject(new Error(`npm start exited with ${code} before it was ready:\n${stderr}`)),
    )
  })
  // A run meant to fail never becomes ready; that is no unhandled rejection.
  ready.catch(() => {})
  return { child, stdout, stderr: () => stderr, ready, exited, line }
}

/** A process's command line, its arguments joined by spaces ('' once it has gone). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
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
      // The table's third network beside the interface's two (DECISIONS §9.5): its devnet too.
      const run = npmStart('--free-ports', '--networks', 'ethereum,altchain,base')
      await run.ready
      const started = descendants(Number(run.child.pid))

      // npm's own banner and offline's request lines aside, the phases in order.
      const lines = run.stdout.filter(
        (line) => line !== '' && !line.startsWith('>') && !line.startsWith('[offline]'),
      )
      const phases = lines.slice(0, lines.findIndex((line) => line.startsWith(READY_LINE)) + 1)
      expect(phases[0]).toMatch(/^ports \d+, \d+, \d+, \d+, \d+, \d+, \d+ free$/)
      // The engines and the bundling of the functions run side by side: their lines may come in
      // any order, and the bundling line says whether offline had to wait for it.
      const sideBySide = phases.slice(1, -3).filter((line) => line !== WAITING_FOR_BUNDLES)
      const sideBySidePatterns = [
        // Bundled, or the bundles of an earlier start reused when nothing they are built from changed.
        /^\d+ functions (bundled in one esbuild pass|unchanged since the last bundling, bundles reused) \(\d+\.\d s\)$/,
        /^DynamoDB Local on :\d+ … ready \(\d+\.\d s\)$/,
        /^anvil ethereum :\d+ \/ altchain :\d+ \/ base :\d+ … ready \(\d+\.\d s\)$/,
        /^DEX and token zoo deployed \(ethereum, altchain, base\) \(\d+\.\d s\)$/,
        /^table seeded \(3 networks, \d+ projects, demo data\) \(\d+\.\d s\)$/,
      ]
      expect(sideBySide).toHaveLength(sideBySidePatterns.length)
      for (const pattern of sideBySidePatterns) {
        expect(sideBySide.filter((line) => pattern.test(line))).toHaveLength(1)
      }
      expect(phases.slice(-3)).toEqual([
        expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+ \(\d+\.\d s\)$/),
        "price history: filling from the devnets' year in the background …",
        expect.stringMatching(/^Local stack ready in \d+\.\d s$/),
      ])
      // The engines it runs (beside node's and tsx's own helpers, and esbuild when it bundled):
      // a devnet for each of the three networks.
      const commands = started.map(commandLine)
      expect({
        dynamo: commands.filter((command) => command.includes('DynamoDBLocal.jar')).length,
        anvil: commands.filter((command) => /\banvil --host 127\.0\.0\.1\b/.test(command)).length,
        offline: commands.filter((command) => /serverless\S* offline/.test(command)).length,
      }).toEqual({ dynamo: 1, anvil: 3, offline: 1 })
      expect(started.filter(isRunning)).toEqual(started)
      // It serves the three: each network's devnet is named, and the API lists them.
      for (const network of ['ethereum', 'altchain', 'base']) {
        expect(
          run.stdout.some((line) => line.startsWith(`  ${network} RPC http://127.0.0.1:`)),
        ).toBe(true)
      }
      const api = /^ {2}API +(http:\/\/\S+)\/api\/v1 /m.exec(run.stdout.join('\n'))?.[1]
      const listed = (await (await fetch(`${api}/api/v1/networks`)).json()) as {
        result: { networks: Array<{ network: string }> }
      }
      expect(listed.result.networks.map(({ network }) => network).sort()).toEqual([
        'altchain',
        'base',
        'ethereum',
      ])
      // The history is read after the API answers; a line says when it is done, every project
      // of the demo catalog priced.
      const projects = Number(
        /table seeded \(3 networks, (\d+) projects/.exec(lines.join('\n'))?.[1],
      )
      expect(await run.line(/^price history filled/)).toMatch(
        new RegExp(
          `^price history filled \\(\\d+ buckets; ${projects} prices sampled\\) \\(\\d+\\.\\d s\\)$`,
        ),
      )

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
