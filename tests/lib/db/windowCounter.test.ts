import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { clientWindowKey } from '../../../lib/db/keys'
import { countInWindow, releaseFromWindow, windowOf } from '../../../lib/db/windowCounter'

const key = () => clientWindowKey('test', `ip-${randomUUID()}`, 0)

describe('countInWindow', () => {
  it('lets exactly `limit` of 30 concurrent callers through, and tells the rest when to retry', async () => {
    const counter = key()
    const now = new Date()
    const { endsAt } = windowOf(60, now)

    const results = await Promise.all(
      Array.from({ length: 30 }, () => countInWindow(counter, { limit: 7, endsAt, now })),
    )

    expect(results.filter((result) => result.allowed)).toHaveLength(7)
    for (const result of results.filter((result) => !result.allowed)) {
      expect(result).toMatchObject({ allowed: false, retryAfterSeconds: expect.any(Number) })
      if (!result.allowed) {
        expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect(result.retryAfterSeconds).toBeLessThanOrEqual(60)
      }
    }
  })

  it('gives a released unit back to the window', async () => {
    const counter = key()
    const endsAt = windowOf(60).endsAt
    await countInWindow(counter, { limit: 1, endsAt })
    expect((await countInWindow(counter, { limit: 1, endsAt })).allowed).toBe(false)

    await releaseFromWindow(counter)

    expect((await countInWindow(counter, { limit: 1, endsAt })).allowed).toBe(true)
  })
})

describe('windowOf', () => {
  it('aligns windows to multiples of their length', () => {
    expect(windowOf(900, new Date('2026-11-24T01:14:59Z'))).toEqual({
      startsAt: Date.parse('2026-11-24T01:00:00Z') / 1000,
      endsAt: Date.parse('2026-11-24T01:15:00Z') / 1000,
    })
  })
})
