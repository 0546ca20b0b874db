import type { Hex } from 'viem'
import { BadRequest } from '../errors'

// Every spelling accepted here (0x or 0X or none, any case, surrounding whitespace; the gateway
// decodes a percent-encoded path) is one the log redactor masks (tests/lib/logger.test.ts).
const PRIVATE_KEY = /^(?:0x)?([0-9a-f]{64})$/i
// The order n of secp256k1: a private key is a scalar in 1..n-1.
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/**
 * A private key as `0x` and 64 lower-case hex digits, from 64 hex digits in any case with or
 * without `0x`; a BadRequest that never quotes the input otherwise.
 */
export function parsePrivateKey(input: string): Hex {
  const digits = PRIVATE_KEY.exec(input.trim())?.[1]
  if (!digits) {
    throw new BadRequest('a private key is 64 hex digits, with or without 0x')
  }
  const key: Hex = `0x${digits.toLowerCase()}`
  const scalar = BigInt(key)
  if (scalar === 0n || scalar >= SECP256K1_ORDER) {
    throw new BadRequest('the private key is not a valid secp256k1 key (it must be 1..n-1)')
  }
  return key
}
