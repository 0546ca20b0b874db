import { type ChildProcess } from 'node:child_process'

/** Ends a child process (its whole group when it leads one) and resolves once it has exited. */
export function stopProcess(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const signal = (name: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, name)
      } catch {
        child.kill(name)
      }
    }
    const timer = setTimeout(() => signal('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    signal('SIGTERM')
  })
}

/** Polls `probe` until it resolves true, the child exits, or the time runs out. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  options: { timeoutMs: number; child?: ChildProcess; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  while (Date.now() < deadline) {
    if (options.child && options.child.exitCode !== null) {
      throw new Error(`${what} exited early with code ${options.child.exitCode}`)
    }
    if (await probe().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100))
  }
  throw new Error(`${what} was not ready within ${options.timeoutMs} ms`)
}
