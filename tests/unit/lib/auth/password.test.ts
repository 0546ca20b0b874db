import '../../../support/env'
import { createHash, randomBytes, scrypt } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { hashPassword, verifyPassword } from '../../../../lib/auth/password'

// The real scrypt, watched: which work a verification did is counted, not timed.
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>()
  return { ...crypto, scrypt: vi.fn(crypto.scrypt) }
})

/** A stored hash made with other parameters, as an older release might have written it. */
function hashWith(password: string, logCost: number, blockSize: number): Promise<string> {
  const salt = randomBytes(16)
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 64, { N: 2 ** logCost, r: blockSize, p: 1 }, (error, key) =>
      error
        ? reject(error)
        : resolve(
            `scrypt$${logCost}$${blockSize}$1$${salt.toString('base64')}$${key.toString('base64')}`,
          ),
    )
  })
}

/** The key length and cost options of each scrypt call `work` made. */
async function scryptCalls(work: () => Promise<unknown>): Promise<unknown[]> {
  vi.mocked(scrypt).mockClear()
  await work()
  return vi.mocked(scrypt).mock.calls.map(([, , keyLength, options]) => {
    const { N, r, p } = options as { N: number; r: number; p: number }
    return { keyLength, N, r, p }
  })
}

describe('hashPassword', () => {
  it('writes scrypt N=2^17, r=8, p=1 with a 16-byte salt and a 64-byte key', async () => {
    const hash = await hashPassword('correct horse battery staple')

    const [scheme, logCost, blockSize, parallelization, salt = '', key = ''] = hash.split('$')
    expect([scheme, logCost, blockSize, parallelization]).toEqual(['scrypt', '17', '8', '1'])
    expect(Buffer.from(salt, 'base64')).toHaveLength(16)
    expect(Buffer.from(key, 'base64')).toHaveLength(64)
  })

  it('salts every hash: one password gives two different hashes', async () => {
    const [first, second] = await Promise.all([
      hashPassword('same password'),
      hashPassword('same password'),
    ])

    expect(first).not.toBe(second)
  })
})

describe('verifyPassword', () => {
  it('accepts the password of a hash and refuses any other', async () => {
    const hash = await hashPassword('correct horse battery staple')

    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true)
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false)
  })

  it('reads the parameters from the stored hash', async () => {
    const hash = await hashWith('an older password', 14, 8)

    expect(await verifyPassword('an older password', hash)).toBe(true)
    expect(await verifyPassword('another password', hash)).toBe(false)
  })

  it('treats the composed and decomposed forms of a character as one password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait')

    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true)
  })

  it('answers false without a stored hash, after the same scrypt work', async () => {
    const hash = await hashPassword('a real password')

    const known = await scryptCalls(() => verifyPassword('a wrong password', hash))
    const unknown = await scryptCalls(() => verifyPassword('a wrong password', undefined))

    expect(await verifyPassword('a wrong password', undefined)).toBe(false)
    // The same work, counted: one scrypt call at the stored cost either way, no branch skipping it.
    expect(known).toEqual([{ keyLength: 64, N: 2 ** 17, r: 8, p: 1 }])
    expect(unknown).toEqual(known)
  })

  it('refuses a stored value that is not an scrypt hash', async () => {
    const sha256 = createHash('sha256').update('password').digest('hex')

    await expect(verifyPassword('password', sha256)).rejects.toThrow(/not in scrypt format/)
  })
})
