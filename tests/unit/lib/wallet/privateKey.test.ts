import '../../../support/env'
import { describe, expect, it } from 'vitest'
import { parsePrivateKey } from '../../../../lib/wallet/privateKey'

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const ORDER = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'

describe('parsePrivateKey', () => {
  it.each([
    ['0x-prefixed lower case', KEY],
    ['bare hex', KEY.slice(2)],
    ['upper-case hex', `0x${KEY.slice(2).toUpperCase()}`],
    ['an upper-case prefix', `0X${KEY.slice(2)}`],
    ['surrounding whitespace', ` ${KEY}\n`],
  ])('accepts %s and returns 0x with lower-case hex', (_case, input) => {
    expect(parsePrivateKey(input)).toBe(KEY)
  })

  it('accepts the smallest and largest keys of the curve, 1 and n-1', () => {
    const one = `0x${'0'.repeat(63)}1`
    const largest = `0x${ORDER.slice(0, -1)}0`

    expect(parsePrivateKey(one)).toBe(one)
    expect(parsePrivateKey(largest)).toBe(largest)
  })

  it.each([
    ['63 digits', KEY.slice(0, -1), 'a private key is 64 hex digits, with or without 0x'],
    ['65 digits', `${KEY}0`, 'a private key is 64 hex digits, with or without 0x'],
    [
      'a non-hex digit',
      `${KEY.slice(0, -1)}g`,
      'a private key is 64 hex digits, with or without 0x',
    ],
    ['an empty string', '', 'a private key is 64 hex digits, with or without 0x'],
    [
      'zero',
      `0x${'0'.repeat(64)}`,
      'the private key is not a valid secp256k1 key (it must be 1..n-1)',
    ],
    ['n', `0x${ORDER}`, 'the private key is not a valid secp256k1 key (it must be 1..n-1)'],
    [
      '2^256 - 1',
      `0x${'f'.repeat(64)}`,
      'the private key is not a valid secp256k1 key (it must be 1..n-1)',
    ],
  ])('rejects %s with a 400 that does not quote the key', (_case, input, message) => {
    expect(() => parsePrivateKey(input)).toThrow(
      expect.objectContaining({ name: 'BadRequest', status: 400, message }),
    )
  })
})
