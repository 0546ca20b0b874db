import { randomInt } from 'node:crypto'
import {
  type Address,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  type Hex,
  hashMessage,
  hexToBool,
  isAddressEqual,
  isErc6492Signature,
  recoverMessageAddress,
  size,
} from 'viem'
import { call, getCode } from 'viem/actions'
import { createSiweMessage } from 'viem/siwe'
import { isNodeFailure, onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadAuthConfig, loadChainConfig } from '../config'
import { SIWE_NONCE_RANGE } from '../constants'
import type { WalletNonce } from '../db/wallet'

export const NONCE_LIFETIME_MS = 5 * 60 * 1000
const STATEMENT = 'Sign in to the wallet app. This request costs nothing and sends no transaction.'
/** An EOA's signature: r, s and v. */
const ECDSA_SIGNATURE_BYTES = 65
/** DECISIONS §7.1: a contract wallet's check may not burn more than this. */
export const CONTRACT_CHECK_GAS = 1_000_000n

/** A random nonce of 12 to 15 digits, as a number (the interface's type). */
export function generateNonce(now = new Date()): WalletNonce {
  return { nonce: randomInt(SIWE_NONCE_RANGE.min, SIWE_NONCE_RANGE.max), issuedAt: now }
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

/** How a signature must be checked (DECISIONS §7.1: the cheap way first). */
export function signatureKind(signature: Hex): 'ecdsa' | 'contract' {
  return size(signature) === ECDSA_SIGNATURE_BYTES && !isErc6492Signature(signature)
    ? 'ecdsa'
    : 'contract'
}

/** The nonce among `nonces` whose message the EOA signature recovers to `address`; no RPC call. */
export async function recoverSignedNonce<Nonce extends WalletNonce>(
  address: Address,
  nonces: readonly Nonce[],
  signature: Hex,
): Promise<Nonce | undefined> {
  for (const nonce of nonces) {
    try {
      const signer = await recoverMessageAddress({
        message: signInMessage(address, nonce),
        signature,
      })
      if (isAddressEqual(signer, address)) return nonce
    } catch {
      // Not a valid secp256k1 signature at all: no nonce matches.
      return undefined
    }
  }
  return undefined
}

/**
 * The RPC calls verifyContractSignature makes for a signature: the `eth_call`, after an
 * `eth_getCode` unless the signature is ERC-6492-wrapped. What a client's RPC budget is charged.
 */
export function contractCheckRpcCalls(signature: Hex): number {
  return isErc6492Signature(signature) ? 1 : 2
}

/**
 * A contract wallet's signature (EIP-1271, or ERC-6492 for one not yet deployed), checked on
 * chain by the ERC-6492 validator in a deployless `eth_call` capped at CONTRACT_CHECK_GAS. An
 * address without code is refused unless the signature is ERC-6492-wrapped (it deploys first).
 */
export async function verifyContractSignature(
  address: Address,
  nonce: WalletNonce,
  signature: Hex,
): Promise<boolean> {
  const client = publicClient('ethereum')
  return onChain('ethereum', async () => {
    if (!isErc6492Signature(signature)) {
      const code = await getCode(client, { address })
      if (!code || code === '0x') return false
    }
    try {
      const { data } = await call(client, {
        data: encodeDeployData({
          abi: erc6492SignatureValidatorAbi,
          bytecode: erc6492SignatureValidatorByteCode,
          args: [address, hashMessage(signInMessage(address, nonce)), signature],
        }),
        gas: CONTRACT_CHECK_GAS,
      })
      return hexToBool(data ?? '0x0')
    } catch (error) {
      // A revert or running out of the capped gas is a refusal; a node failure is not.
      if (isExecutionFailure(error)) return false
      throw error
    }
  })
}

/** A revert or the capped gas running out (an answer), not a failure of the node (a 502). */
function isExecutionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'CallExecutionError' && !isNodeFailure(error)
}
