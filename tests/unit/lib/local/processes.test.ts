import { describe, expect, it } from 'vitest'
import { NotReadyError, waitUntil } from '../../../../lib/local/processes'

describe('waitUntil', () => {
  it('ends with the "did not answer" message when the last probe starts a fraction of a ms before the deadline', async () => {
    // performance.now() is fractional, so a probe timeout cut to the time left is fractional
    // too; AbortSignal.timeout takes whole milliseconds only. A slow probe (the busy machine)
    // and a long probe timeout put many probes near the deadline, each with a fractional rest.
    let probes = 0
    const failure = await waitUntil(
      'a silent service',
      async () => {
        probes += 1
        await new Promise((resolve) => setTimeout(resolve, 3))
        return false
      },
      { timeoutMs: 40, intervalMs: 0, probeTimeoutMs: 60_000 },
    ).catch((error: unknown) => error)

    expect(probes).toBeGreaterThan(1)
    expect(failure).toBeInstanceOf(NotReadyError)
    expect((failure as Error).message).toBe('a silent service did not answer within 40 ms')
  })
})
