import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { Address } from 'viem'
import type { WalletNonce } from '../db/nonce'
import { macKey } from './macKey'

// DECISIONS §10.4: a nonce proves its own issue, so a login that names it needs nothing stored
// but the mark of its use. Its 52 low bits (under a leading 1, so always 16 digits, a safe
// integer within SIWE_NONCE_RANGE) hold the issue second mod 512, 16 random bits and a 27-bit MAC
// over the address, the full issue second and the random bits, under the service's nonce key.
// The login rebuilds the second from its own clock (the only one within 512 s of it; a nonce
// lives 300 s, clocks may differ by NONCE_CLOCK_SKEW_SECONDS) and the message from the second.
// Two nonces of one address are one message only when issued in the same second with the same
// random bits (1 in 65,536): then the second login with it is refused as a replay. A forged MAC
// passes once in 2^27 tries, each needing the owner's signature; and the MAC is not what stops a
// phisher, who can ask a real nonce, but what makes every accepted message one issued here less
// than 5 minutes before. Not bound to the client: what a stranger lacks is the owner's signature,
// and an owner whose address changes between nonce and signature (Wi-Fi to mobile) still signs in.
const TIME_BITS = 9n
const RANDOM_BITS = 16n
const MAC_BITS = 27n
const LEAD = 1n << (TIME_BITS + RANDOM_BITS + MAC_BITS)
const TIME_SPAN = 1 << Number(TIME_BITS)

/** Issue times this far ahead of the login's clock are still taken (Lambdas' clocks differ). */
export const NONCE_CLOCK_SKEW_SECONDS = 60

async function macOf(address: Address, issuedAt: number, random: number): Promise<number> {
  const digest = createHmac('sha256', await macKey('nonce'))
    .update(`${address.toLowerCase()}|${issuedAt}|${random}`)
    .digest()
  return digest.readUInt32BE(0) >>> Number(32n - MAC_BITS)
}

/** A fresh nonce for the address, issued at `now` (whole seconds). */
export async function mintNonce(address: Address, now = new Date()): Promise<WalletNonce> {
  const issuedAt = Math.floor(now.getTime() / 1000)
  const random = randomInt(1 << Number(RANDOM_BITS))
  const mac = await macOf(address, issuedAt, random)
  const nonce =
    LEAD |
    (BigInt(issuedAt % TIME_SPAN) << (RANDOM_BITS + MAC_BITS)) |
    (BigInt(random) << MAC_BITS) |
    BigInt(mac)
  return { nonce: Number(nonce), issuedAt: new Date(issuedAt * 1000) }
}

/**
 * The nonce as it was issued for the address, when `nonce` is one the service issued for it that
 * has not expired at `now` (issued less than `lifetimeSeconds` ago); otherwise undefined. A MAC
 * compared in constant time; no table read.
 */
export async function openNonce(
  address: Address,
  nonce: number,
  { lifetimeSeconds, now = new Date() }: { lifetimeSeconds: number; now?: Date },
): Promise<WalletNonce | undefined> {
  if (!Number.isSafeInteger(nonce) || nonce < Number(LEAD) || nonce >= Number(LEAD << 1n)) {
    return undefined
  }
  const value = BigInt(nonce)
  const second = Number((value >> (RANDOM_BITS + MAC_BITS)) % BigInt(TIME_SPAN))
  const random = Number((value >> MAC_BITS) % (1n << RANDOM_BITS))
  const mac = Number(value % (1n << MAC_BITS))
  const nowSeconds = Math.floor(now.getTime() / 1000)
  // The latest second at or before the skewed clock whose residue is `second`.
  const latest = nowSeconds + NONCE_CLOCK_SKEW_SECONDS
  const issuedAt = latest - ((((latest - second) % TIME_SPAN) + TIME_SPAN) % TIME_SPAN)
  if (issuedAt + lifetimeSeconds <= nowSeconds) return undefined
  const expected = Buffer.alloc(4)
  expected.writeUInt32BE(await macOf(address, issuedAt, random))
  const given = Buffer.alloc(4)
  given.writeUInt32BE(mac)
  if (!timingSafeEqual(expected, given)) return undefined
  return { nonce, issuedAt: new Date(issuedAt * 1000) }
}
