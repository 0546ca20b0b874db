import type { Address, Hex } from 'viem'
import { accountFromKey } from './accountFromKey'
import { parsePrivateKey } from './privateKey'

export interface Wallet {
  /** Checksummed (EIP-55). */
  address: Address
  /** `0x` and 64 lower-case hex digits. */
  privateKey: Hex
}

/** The wallet a private key controls; the key is validated first (see parsePrivateKey). */
export function walletFromKey(input: string): Wallet {
  const privateKey = parsePrivateKey(input)
  return { address: accountFromKey(privateKey).address, privateKey }
}
