import type { ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'

const GROUP_POLL_MS = 25
const GROUP_GONE_AFTER_KILL_MS = 2000

/** A wait for a process that ran out of time; the message names what was awaited and the limit. */
export class NotReadyError extends Error {
  override name = 'NotReadyError'
}

/** `1 ms`, `750 ms`, `2.5 s`, `240 s`: durations as the phase lines and errors print them. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  const seconds = ms / 1000
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`
}

/** Seconds since `startedAt` (a `performance.now()` value), for the phase lines: `2.1 s`. */
export function secondsSince(startedAt: number): string {
  return `${((performance.now() - startedAt) / 1000).toFixed(1)} s`
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Ends a child process and resolves once it has exited. A child that leads a process group
 * (spawned `detached`) is ended with its whole group, and the promise waits until every member is
 * gone too, so nothing it started (serverless offline's esbuild) outlives `stop()`.
 */
export async function stopProcess(child: ChildProcess, graceMs = 3000): Promise<void> {
  const pid = child.pid
  const signal = (name: NodeJS.Signals) => {
    try {
      if (pid !== undefined) process.kill(-pid, name)
    } catch {
      child.kill(name)
    }
  }
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => signal('SIGKILL'), graceMs)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      signal('SIGTERM')
    })
  }
  if (pid === undefined || !groupAlive(pid)) return
  // The leader is gone but members may still be exiting: give them the grace time, then kill.
  const deadline = performance.now() + graceMs
  while (groupAlive(pid) && performance.now() < deadline) await sleep(GROUP_POLL_MS)
  if (!groupAlive(pid)) return
  signal('SIGKILL')
  // A member already dead but not yet reaped still counts; bounded, since a container whose init
  // never reaps would keep it forever.
  const killedAt = performance.now()
  while (groupAlive(pid) && performance.now() - killedAt < GROUP_GONE_AFTER_KILL_MS) {
    await sleep(GROUP_POLL_MS)
  }
}

export interface WaitUntilOptions {
  /** The whole wait; its end is a NotReadyError naming `what` and this limit. */
  timeoutMs: number
  /** Fails at once when this process exits, instead of polling a port nobody will open. */
  child?: ChildProcess
  intervalMs?: number
  /**
   * The longest one probe may take: its signal aborts then. A probe without one could hang on a
   * socket that accepts and never answers (fetch's own header timeout is 5 minutes).
   */
  probeTimeoutMs?: number
  /** Ends the wait early (Ctrl-C while the stack comes up). */
  signal?: AbortSignal
  /** Appended to an early-exit error: what the process printed. */
  output?: () => string
}

/** Polls `probe` until it resolves true, the child exits, the time runs out or `signal` aborts. */
export async function waitUntil(
  what: string,
  probe: (signal: AbortSignal) => Promise<boolean>,
  options: WaitUntilOptions,
): Promise<void> {
  const { child, timeoutMs } = options
  const deadline = performance.now() + timeoutMs
  const exited = () => {
    if (!child || (child.exitCode === null && child.signalCode === null)) return undefined
    const how = child.signalCode ?? `code ${child.exitCode}`
    const output = options.output?.().trim()
    return new Error(`${what} exited early with ${how}${output ? `:\n${output}` : ''}`)
  }
  while (performance.now() < deadline) {
    options.signal?.throwIfAborted()
    const early = exited()
    if (early) throw early
    // AbortSignal.timeout takes whole milliseconds only: a fractional value near the deadline
    // throws a RangeError that would hide the 'did not answer within' message.
    const remaining = Math.max(1, Math.ceil(deadline - performance.now()))
    const probeSignal = AbortSignal.any([
      AbortSignal.timeout(Math.ceil(Math.min(options.probeTimeoutMs ?? 2000, remaining))),
      ...(options.signal ? [options.signal] : []),
    ])
    if (await probe(probeSignal).catch(() => false)) return
    await sleep(Math.min(options.intervalMs ?? 100, Math.max(0, deadline - performance.now())))
  }
  options.signal?.throwIfAborted()
  throw exited() ?? new NotReadyError(`${what} did not answer within ${formatDuration(timeoutMs)}`)
}

/**
 * Resolves as `work` does, or rejects with a NotReadyError naming `what` and the limit once
 * `limitMs` (whole milliseconds) has passed. The work itself is not stopped: the caller stops
 * the engines it runs against.
 */
export async function withinLimit<Result>(
  what: string,
  limitMs: number,
  work: Promise<Result>,
): Promise<Result> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new NotReadyError(`${what} did not finish within ${formatDuration(limitMs)}`)),
      Math.max(1, Math.ceil(limitMs)),
    )
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
