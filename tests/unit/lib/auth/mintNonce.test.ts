import '../../../support/env'
import fc from 'fast-check'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { mintNonce, NONCE_CLOCK_SKEW_SECONDS, openNonce } from '../../../../lib/auth/mintNonce'
import { SIWE_NONCE_RANGE } from '../../../../lib/constants'

// The unit project has no stack: a secret of its own (read on first use, after this line).
process.env.JWT_SECRET ??= 'a unit-test secret that signs nothing real, 32+ chars'

const LIFETIME = 300
const address = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .filter((bytes) => bytes.some((byte) => byte !== 0))
  .map((bytes) => privateKeyToAccount(`0x${Buffer.from(bytes).toString('hex')}`).address)
// Any second from 2001 to 2286 (epoch seconds of ten digits).
const issueSecond = fc.integer({ min: 1_000_000_000, max: 9_999_999_999 })
const run = { numRuns: 300, seed: 39 }

const at = (seconds: number, ms = 0) => new Date(seconds * 1000 + ms)

describe('mintNonce and openNonce (DECISIONS §10.4)', () => {
  it('issues 16-digit safe integers within the schema range, issued at the whole second', async () => {
    await fc.assert(
      fc.asyncProperty(address, issueSecond, fc.integer({ min: 0, max: 999 }), async (a, t, ms) => {
        const { nonce, issuedAt } = await mintNonce(a, at(t, ms))
        expect(Number.isSafeInteger(nonce)).toBe(true)
        expect(String(nonce)).toHaveLength(16)
        expect(nonce).toBeGreaterThanOrEqual(SIWE_NONCE_RANGE.min)
        expect(nonce).toBeLessThanOrEqual(SIWE_NONCE_RANGE.max)
        expect(issuedAt).toEqual(at(t))
      }),
      run,
    )
  })

  it('opens a nonce for its address from any clock within its lifetime (and the allowed skew before it), giving its issue second', async () => {
    await fc.assert(
      fc.asyncProperty(
        address,
        issueSecond,
        fc.integer({ min: -NONCE_CLOCK_SKEW_SECONDS, max: LIFETIME - 1 }),
        fc.integer({ min: 0, max: 999 }),
        async (a, t, age, ms) => {
          const issued = await mintNonce(a, at(t, 500))
          const opened = await openNonce(a, issued.nonce, {
            lifetimeSeconds: LIFETIME,
            now: at(t + age, ms),
          })
          expect(opened).toEqual({ nonce: issued.nonce, issuedAt: at(t) })
        },
      ),
      run,
    )
  })

  it('refuses a nonce at its lifetime or later, however much later', async () => {
    await fc.assert(
      fc.asyncProperty(
        address,
        issueSecond,
        fc.integer({ min: LIFETIME, max: 10 * 365 * 86_400 }),
        async (a, t, age) => {
          const { nonce } = await mintNonce(a, at(t))
          expect(await openNonce(a, nonce, { lifetimeSeconds: LIFETIME, now: at(t + age) })).toBe(
            undefined,
          )
        },
      ),
      run,
    )
  })

  it("refuses another address's nonce, and any nonce with one bit changed", async () => {
    await fc.assert(
      fc.asyncProperty(
        address,
        address,
        issueSecond,
        fc.integer({ min: 0, max: 51 }),
        async (a, b, t, bit) => {
          fc.pre(a !== b)
          const { nonce } = await mintNonce(a, at(t))
          const options = { lifetimeSeconds: LIFETIME, now: at(t + 1) }
          expect(await openNonce(b, nonce, options)).toBe(undefined)
          const flipped = Number(BigInt(nonce) ^ (1n << BigInt(bit)))
          expect(await openNonce(a, flipped, options)).toBe(undefined)
        },
      ),
      run,
    )
  })

  it('refuses numbers outside the issued range without an error', async () => {
    const [a] = fc.sample(address, { numRuns: 1, seed: 1 })
    for (const nonce of [0, -1, 1.5, 2 ** 52 - 1, 2 ** 53, Number.NaN, 1e300]) {
      expect(await openNonce(a ?? '0x', nonce, { lifetimeSeconds: LIFETIME })).toBe(undefined)
    }
  })
})
