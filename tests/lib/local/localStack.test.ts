import { describe, expect, it } from 'vitest'
import { startLocalStack } from '../../../lib/local/localStack'

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the local stack', () => {
  it('leaves no process behind once stopped', async () => {
    const environment = { ...process.env }
    const stack = await startLocalStack({ ports: 'free' })
    Object.assign(process.env, environment)

    expect(stack.pids).toHaveLength(3)
    expect(stack.pids.every(isRunning)).toBe(true)
    await stack.stop()

    expect(stack.pids.filter(isRunning)).toEqual([])
  })
})
