import { afterEach, describe, expect, it, vi } from 'vitest'
import { NotReadyError, waitUntil } from '../../../../lib/local/processes'

describe('waitUntil', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('ends with the "did not answer" message when the last probe starts a fraction of a ms before the deadline', async () => {
    // performance.now() is fractional, so a probe timeout cut to the time left is fractional
    // too; AbortSignal.timeout takes whole milliseconds only. The clock is the test's: the first
    // probe takes 39.7 of the 40 ms, so the second starts 0.3 ms before the deadline, and takes
    // the rest.
    vi.useFakeTimers({ toFake: ['performance'] })
    const startedAt: number[] = []
    const failure = await waitUntil(
      'a silent service',
      () => {
        startedAt.push(performance.now())
        vi.advanceTimersByTime(startedAt.length === 1 ? 39.7 : 1)
        return Promise.resolve(false)
      },
      { timeoutMs: 40, intervalMs: 0, probeTimeoutMs: 60_000 },
    ).catch((error: unknown) => error)

    expect(startedAt.map((at) => Number((at - (startedAt[0] ?? 0)).toFixed(3)))).toEqual([0, 39.7])
    expect(failure).toBeInstanceOf(NotReadyError)
    expect((failure as Error).message).toBe('a silent service did not answer within 40 ms')
  })
})
