import { describe, expect, it } from 'vitest'
import { untrustedCallGas, withCallBudget } from '../../../../lib/chain/callBudget'
import { loadUntrustedCallConfig } from '../../../../lib/config'
import { CallBudgetSpent } from '../../../../lib/errors'

// DECISIONS §8.2: each call into code a caller chose is capped, and a request makes at most its
// budget of them (the defaults: 3,000,000 gas, 48 calls).

describe('the budget of calls into caller-chosen contracts', () => {
  it('gives the cap to each of 48 calls of a request and refuses the 49th with a 422', async () => {
    const { gasPerCall, callsPerRequest } = loadUntrustedCallConfig()
    expect([gasPerCall, callsPerRequest]).toEqual([3_000_000n, 48])

    await withCallBudget(() => {
      for (let call = 0; call < callsPerRequest; call++) expect(untrustedCallGas()).toBe(gasPerCall)
      expect(() => untrustedCallGas()).toThrow(CallBudgetSpent)
      try {
        untrustedCallGas()
      } catch (error) {
        expect(error).toMatchObject({ status: 422, code: 422 })
      }
      return Promise.resolve()
    })
  })

  it('keeps one budget per request, however they interleave', async () => {
    const spend = (calls: number) =>
      withCallBudget(async () => {
        for (let call = 0; call < calls; call++) {
          untrustedCallGas()
          await Promise.resolve()
        }
        return 'done'
      })

    await expect(Promise.all([spend(48), spend(48), spend(48)])).resolves.toEqual([
      'done',
      'done',
      'done',
    ])
  })

  it('caps without counting outside a request (schedules, scripts)', () => {
    for (let call = 0; call < 100; call++) expect(untrustedCallGas()).toBe(3_000_000n)
  })
})
