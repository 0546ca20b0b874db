import '../../support/env'
import { createHash, randomBytes, scrypt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from '../../../lib/auth/password'

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

async function timed<Value>(work: () => Promise<Value>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
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

    const known = await timed(() => verifyPassword('a wrong password', hash))
    const unknown = await timed(() => verifyPassword('a wrong password', undefined))

    expect(await verifyPassword('a wrong password', undefined)).toBe(false)
    // Loose bounds: the point is that no branch skips the hash; timings on a shared CI vary.
    expect(unknown).toBeGreaterThan(known / 3)
    expect(unknown).toBeLessThan(known * 3)
  })

  it('refuses a stored value that is not an scrypt hash', async () => {
    const sha256 = createHash('sha256').update('password').digest('hex')

    await expect(verifyPassword('password', sha256)).rejects.toThrow(/not in scrypt format/)
  })
})
