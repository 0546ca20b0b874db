import { channel } from 'node:diagnostics_channel'
import type { ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/** The fields of /proc/<pid>/stat after the command name, which may itself hold spaces. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** Whether `pid` still runs: an exited process not yet reaped (state Z) does not count. */
export function isRunning(pid: number): boolean {
  const state = statFields(pid)?.[0]
  return state !== undefined && state !== 'Z'
}

/** Every process below `pid` (children, theirs, and so on), from /proc (Linux). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const parent = Number(statFields(Number(entry))?.[1])
    if (!Number.isInteger(parent)) continue
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
  }
  const found: number[] = []
  const queue = [pid]
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const below = children.get(next) ?? []
    found.push(...below)
    queue.push(...below)
  }
  return found
}

/**
 * Records every child process this process spawns until `stop()` (Node publishes each new
 * ChildProcess on the `child_process` diagnostics channel).
 */
export function recordSpawns(): { spawned: ChildProcess[]; stop(): void } {
  const spawned: ChildProcess[] = []
  const spawns = channel('child_process')
  const onSpawn = (message: unknown) => spawned.push((message as { process: ChildProcess }).process)
  spawns.subscribe(onSpawn)
  return { spawned, stop: () => spawns.unsubscribe(onSpawn) }
}

/**
 * The processes of `pids` still running once they all stopped or `timeoutMs` ran out. A child's
 * own helper (tsx's esbuild service) exits when its parent's pipe closes, a moment after it.
 */
export async function stillRunningAfter(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = performance.now() + timeoutMs
  while (pids.some(isRunning) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return pids.filter(isRunning)
}
