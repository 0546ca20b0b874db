import { secp256k1 } from '@noble/curves/secp256k1'
import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'

// The window of the generator's precomputed multiples. noble's default (8) builds its table of
// about 4,000 points on the first key conversion, 30-40 ms of a cold request; 4 builds a small
// one in a few ms, and a multiplication by the generator stays well under a millisecond.
const BASE_POINT_WINDOW = 4
let windowSet = false

/**
 * The viem account of a validated private key (see parsePrivateKey). The first call in a
 * container builds the smaller precompute table through noble's public `utils.precompute`
 * (the same @noble/curves instance viem signs with), so no request pays for the large one.
 */
export function accountFromKey(privateKey: Hex): PrivateKeyAccount {
  if (!windowSet) {
    secp256k1.utils.precompute(BASE_POINT_WINDOW)
    windowSet = true
  }
  return privateKeyToAccount(privateKey)
}
