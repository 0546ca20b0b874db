import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Socket } from 'node:net'
import { dirname, join } from 'node:path'
import { stopProcess } from './processes'

// An anvil process's life: which binary, how it is spawned, why it exited, how it is stopped,
// and the safety net that kills it with its parent. lib/local/anvil.ts starts and waits for it.

export class AnvilStartError extends Error {
  override name = 'AnvilStartError'
}

const STOP_GRACE_MS = 2_000
const STDERR_TAIL_CHARS = 2_000

// The npm wrapper maps Node's arch names onto these package suffixes (see @foundry-rs/anvil/const.mjs).
const PACKAGE_ARCH: Partial<Record<NodeJS.Platform, Partial<Record<NodeJS.Architecture, string>>>> =
  {
    darwin: { x64: 'amd64', arm64: 'arm64' },
    linux: { x64: 'amd64', arm64: 'arm64' },
    win32: { x64: 'amd64' },
  }

const require = createRequire(import.meta.url)
const running = new Set<ChildProcess>()
const PARENT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

export interface AnvilProcess {
  child: ChildProcess
  /** Why it exited (or could not be spawned), with its stderr's tail; undefined while it runs. */
  exitReason: () => string | undefined
  /** SIGTERM, then SIGKILL after 2 s; resolves once the process has exited. */
  stop: () => Promise<void>
}

/**
 * Spawns anvil with `args`, tracked until it exits (killed with its parent), neither it nor its
 * stderr pipe keeping the parent's event loop alive.
 */
export function spawnAnvil(args: string[]): AnvilProcess {
  const child = spawn(
    resolveAnvilBinary(),
    args,
    // stdout is silent with --quiet; stderr is kept only to explain an early exit.
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  trackUntilExit(child)

  let stderrTail = ''
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)
  })
  // Neither the process nor its stderr pipe may keep the parent's event loop alive.
  child.unref()
  if (child.stderr instanceof Socket) child.stderr.unref()

  let exitReason: string | undefined
  child.once('error', (error) => {
    exitReason = `could not be spawned: ${error.message}`
  })
  // 'close' rather than 'exit' so the stderr tail is complete.
  child.once('close', (code, signal) => {
    exitReason = `exited with ${signal ?? `code ${code}`}: ${stderrTail.trim() || 'no output'}`
  })
  return { child, exitReason: () => exitReason, stop: stopOnce(child) }
}

/** Path of the platform's anvil binary, bypassing the npm wrapper (it ignores SIGINT). */
export function resolveAnvilBinary(): string {
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  const arch = PACKAGE_ARCH[process.platform]?.[process.arch]
  const packageName = `@foundry-rs/anvil-${process.platform}-${arch ?? process.arch}`
  try {
    const candidate = join(dirname(require.resolve(`${packageName}/package.json`)), 'bin', binary)
    if (existsSync(candidate)) return candidate
  } catch {
    // Only linux-amd64 is pinned in package.json (the registry we install from has no other).
  }
  // An anvil of foundry's own on the PATH serves as well.
  if (spawnSync(binary, ['--version']).status === 0) return binary
  throw new AnvilStartError(
    `no anvil for ${process.platform}-${process.arch}: run \`npm install --no-save ${packageName}@1.7.1\` or put foundry's anvil on the PATH`,
  )
}

function stopOnce(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined
  return () => {
    // A child that failed to spawn has no pid and never emits 'exit'.
    if (child.pid === undefined) return Promise.resolve()
    // Hold the event loop until the exit is observed.
    child.ref()
    stopping ??= stopProcess(child, STOP_GRACE_MS)
    return stopping
  }
}

/**
 * While any node runs, the parent's exit or a terminating signal SIGKILLs it first. Node skips
 * 'exit' handlers on a signal (vitest stops its forks with SIGTERM), hence the signal hooks; a
 * SIGKILLed parent cannot be covered this way.
 */
function trackUntilExit(child: ChildProcess): void {
  running.add(child)
  if (running.size === 1) setParentHooks('on')
  const untrack = () => {
    if (running.delete(child) && running.size === 0) setParentHooks('off')
  }
  child.once('exit', untrack)
  child.once('error', untrack)
}

function setParentHooks(action: 'on' | 'off'): void {
  process[action]('exit', killRunning)
  for (const signal of PARENT_SIGNALS) process[action](signal, onParentSignal)
}

function killRunning(): void {
  // 'exit' handlers must be synchronous; kill() is.
  for (const child of running) child.kill('SIGKILL')
}

function onParentSignal(signal: NodeJS.Signals): void {
  killRunning()
  setParentHooks('off')
  // Re-raise for the default action (terminate), unless another listener owns the shutdown.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}
