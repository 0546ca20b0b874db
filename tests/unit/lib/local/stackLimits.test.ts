import { describe, expect, it } from 'vitest'
import { NotReadyError, withinLimit } from '../../../../lib/local/processes'
import {
  BadLimitError,
  DEFAULT_LIMIT_SECONDS,
  stackLimits,
} from '../../../../lib/local/stackLimits'

describe("the local stack's phase limits", () => {
  it('are whole milliseconds: the defaults, a variable in whole seconds, or what the caller gives', () => {
    const limits = stackLimits({ dynamo: 1.5 }, { LOCAL_TIMEOUT_OFFLINE_S: '600' })
    expect(limits).toEqual({
      ...Object.fromEntries(
        Object.entries(DEFAULT_LIMIT_SECONDS).map(([phase, seconds]) => [phase, seconds * 1000]),
      ),
      dynamo: 2,
      offline: 600_000,
    })
    expect(Object.values(limits).every(Number.isInteger)).toBe(true)
  })

  it.each(['2.5', '0', '-1', '3601', 'ten', '1e3'])(
    'refuse a variable that is not whole seconds from 1 to 3600 (%j), naming it',
    (raw) => {
      expect(() => stackLimits({}, { LOCAL_TIMEOUT_BUNDLE_S: raw })).toThrow(BadLimitError)
      expect(() => stackLimits({}, { LOCAL_TIMEOUT_BUNDLE_S: raw })).toThrow(
        /^LOCAL_TIMEOUT_BUNDLE_S must be a whole number of seconds/,
      )
    },
  )

  it('end a phase that outlasts its limit with its name and the limit', async () => {
    const never = new Promise<never>(() => {})
    const failure = await withinLimit('seeding the table', 5, never).catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(NotReadyError)
    expect((failure as Error).message).toBe('seeding the table did not finish within 5 ms')
    expect(await withinLimit('deploying', 1000, Promise.resolve('done'))).toBe('done')
  })
})
