import '../../../support/env'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DEVICE_TOKEN_LIFETIME_SECONDS,
  isDeviceTokenFor,
  issueDeviceToken,
} from '../../../../lib/auth/deviceToken'

// The unit project has no stack: a secret of its own (read on first use, after this line).
process.env.JWT_SECRET ??= 'a unit-test secret that signs nothing real, 32+ chars'

const username = fc.stringMatching(/^[A-Za-z0-9_.-]{3,32}$/)
const moment = fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }).map((s) => new Date(s * 1000))
const run = { numRuns: 200, seed: 39 }

describe('device tokens (DECISIONS §10.4)', () => {
  it('holds for its username in any casing until 90 days have passed, and not a second more', async () => {
    await fc.assert(
      fc.asyncProperty(
        username,
        moment,
        fc.integer({ min: 0, max: DEVICE_TOKEN_LIFETIME_SECONDS - 1 }),
        async (name, issuedAt, age) => {
          const token = await issueDeviceToken(name, issuedAt)
          const later = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000)
          expect(await isDeviceTokenFor(token, name.toUpperCase(), later(age))).toBe(true)
          expect(await isDeviceTokenFor(token, name, later(DEVICE_TOKEN_LIFETIME_SECONDS))).toBe(
            false,
          )
        },
      ),
      run,
    )
  })

  it("is not another username's, nor any token with one character changed", async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'
    await fc.assert(
      fc.asyncProperty(
        username,
        username,
        fc.nat(),
        fc.constantFrom(...alphabet),
        async (name, other, position, replacement) => {
          fc.pre(name.toLowerCase() !== other.toLowerCase())
          const now = new Date()
          const token = await issueDeviceToken(name, now)
          expect(await isDeviceTokenFor(token, other, now)).toBe(false)
          const index = position % token.length
          fc.pre(token[index] !== replacement)
          const changed = `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`
          expect(await isDeviceTokenFor(changed, name, now)).toBe(false)
        },
      ),
      run,
    )
  })

  it('is not the token with its last character changed in the bits base64url leaves unused', async () => {
    const token = await issueDeviceToken('satoshi_n')
    const last = token.at(-1) ?? 'A'
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    // A 32-byte MAC is 43 characters: the last one carries 4 bits and 2 unused ones.
    const index = alphabet.indexOf(last)
    const sameBytes = alphabet[index ^ 1] ?? last

    expect(await isDeviceTokenFor(token, 'satoshi_n')).toBe(true)
    expect(await isDeviceTokenFor(`${token.slice(0, -1)}${sameBytes}`, 'satoshi_n')).toBe(false)
  })

  it('answers false, never throws, for any string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), username, async (token, name) => {
        expect(await isDeviceTokenFor(token, name)).toBe(false)
      }),
      run,
    )
  })
})
