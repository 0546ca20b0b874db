import { randomInt } from 'node:crypto'
import type { Address, Hex } from 'viem'
import { createSiweMessage, verifySiweMessage } from 'viem/siwe'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadAuthConfig, loadChainConfig } from '../config'
import type { WalletNonce } from '../db/wallet'

export const NONCE_LIFETIME_MS = 5 * 60 * 1000
const STATEMENT = 'Sign in to the wallet app. This request costs nothing and sends no transaction.'

/** A random nonce of 12 to 15 digits, as a number (the interface's type). */
export function generateNonce(now = new Date()): WalletNonce {
  return { nonce: randomInt(100_000_000_000, 2 ** 48 - 1), issuedAt: now }
}

/** The exact EIP-4361 text a wallet signs for this nonce; rebuilt, never stored. */
export function signInMessage(address: Address, nonce: WalletNonce): string {
  const config = loadAuthConfig()
  return createSiweMessage({
    domain: config.siweDomain,
    uri: config.siweUri,
    address,
    statement: STATEMENT,
    version: '1',
    chainId: loadChainConfig('ethereum').chainId,
    nonce: String(nonce.nonce),
    issuedAt: nonce.issuedAt,
    expirationTime: new Date(nonce.issuedAt.getTime() + NONCE_LIFETIME_MS),
  })
}

/**
 * Verifies a sign-in signature with viem on the ethereum client, so EOAs (EIP-191) and contract
 * wallets (EIP-1271, ERC-6492) both work. Age is checked here because viem does not.
 */
export async function verifySignIn(parameters: {
  address: Address
  nonce: WalletNonce
  signature: Hex
  now?: Date
}): Promise<boolean> {
  const now = parameters.now ?? new Date()
  const age = now.getTime() - parameters.nonce.issuedAt.getTime()
  if (age < 0 || age > NONCE_LIFETIME_MS) return false
  const config = loadAuthConfig()
  return onChain('ethereum', () =>
    verifySiweMessage(publicClient('ethereum'), {
      message: signInMessage(parameters.address, parameters.nonce),
      signature: parameters.signature,
      address: parameters.address,
      domain: config.siweDomain,
      nonce: String(parameters.nonce.nonce),
      time: now,
    }),
  )
}
