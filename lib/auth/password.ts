import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

// DECISIONS §2: N = 2^17, r = 8, p = 1. N·r·128 bytes = 128 MiB of working memory, above node's
// 32 MiB default `maxmem`, hence the raised limit (and 1024 MB for the functions that hash).
export const SCRYPT_PARAMETERS = { logCost: 17, blockSize: 8, parallelization: 1 } as const
const SALT_BYTES = 16
const KEY_BYTES = 64
const MAX_MEMORY = 256 * 1024 * 1024

// A stored hash names its parameters, so raising them later still verifies older hashes.
const STORED_HASH =
  /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/

// The hash of a random password nobody knows: unknown usernames are checked against it, so a
// login costs the same scrypt work whether or not the account exists.
const DUMMY_HASH =
  'scrypt$17$8$1$7Taf7IwoM1lChuXtKBosDw==$B0GXBATX2fRk3j4t/G0UMByaCDZMDYllxaRdHgygbtF3M/nzEGFbcku8eJOdTW/yrWeCuwLJ6wb8VpQVdfPpgQ=='

interface ScryptParameters {
  logCost: number
  blockSize: number
  parallelization: number
}

function deriveKey(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** parameters.logCost,
    r: parameters.blockSize,
    p: parameters.parallelization,
    maxmem: MAX_MEMORY,
  }
  // NFKC so the same password typed on different systems gives the same bytes (NIST 800-63B).
  const secret = password.normalize('NFKC')
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

/** An scrypt hash with its parameters and salt: `scrypt$17$8$1$<salt b64>$<key b64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await deriveKey(password, salt, SCRYPT_PARAMETERS)
  const { logCost, blockSize, parallelization } = SCRYPT_PARAMETERS
  const parameters = `${logCost}$${blockSize}$${parallelization}`
  return `scrypt$${parameters}$${salt.toString('base64')}$${key.toString('base64')}`
}

/**
 * Whether the password matches the stored hash, compared in constant time. Without a stored hash
 * (an unknown username) it spends the same work on a dummy hash and answers false.
 */
export async function verifyPassword(password: string, storedHash?: string): Promise<boolean> {
  const match = STORED_HASH.exec(storedHash ?? DUMMY_HASH)
  if (!match) throw new Error('the stored password hash is not in scrypt format')
  const [, logCost, blockSize, parallelization, salt = '', expected = ''] = match
  const expectedKey = Buffer.from(expected, 'base64')
  const key = await deriveKey(password, Buffer.from(salt, 'base64'), {
    logCost: Number(logCost),
    blockSize: Number(blockSize),
    parallelization: Number(parallelization),
  })
  const equal = key.length === expectedKey.length && timingSafeEqual(key, expectedKey)
  return equal && storedHash !== undefined
}
