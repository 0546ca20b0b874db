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
import { loadChainConfig } from '../config'
import { loadAuthConfig } from '../config/authConfig'
import type { WalletNonce } from '../db/nonce'

export const NONCE_LIFETIME_MS = 5 * 60 * 1000
const STATEMENT = 'Sign in to the wallet app. This request costs nothing and sends no transaction.'
/** An EOA's signature: r, s and v. */
const ECDSA_SIGNATURE_BYTES = 65
/** DECISIONS §7.1: a contract wallet's check may not burn more than this. */
export const CONTRACT_CHECK_GAS = 1_000_000n

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
 * Whether a signature may be an EOA's (65 bytes, not ERC-6492-wrapped), so checked locally first
 * (DECISIONS §7.1: the cheap way first). A contract wallet's may be 65 bytes too (a 1-of-1 Safe,
 * an ERC-1271 wallet of one owner): when recovery does not give the address, it goes on chain.
 */
export function mayBeEcdsa(signature: Hex): boolean {
  return size(signature) === ECDSA_SIGNATURE_BYTES && !isErc6492Signature(signature)
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
 * Whether the address holds code (a deployed contract wallet, or an EOA with an EIP-7702
 * delegation): one `eth_getCode`. An ERC-6492-wrapped signature does not need it (it deploys
 * the wallet first in the check itself).
 */
export async function hasContractCode(address: Address): Promise<boolean> {
  const code = await onChain('ethereum', () => getCode(publicClient('ethereum'), { address }))
  return code !== undefined && code !== '0x'
}

/**
 * A contract wallet's signature (EIP-1271, or ERC-6492 for one not yet deployed), checked on
 * chain by the ERC-6492 validator in one deployless `eth_call` capped at CONTRACT_CHECK_GAS.
 * The caller has made sure the address holds code unless the signature is ERC-6492-wrapped.
 */
export async function verifyContractSignature(
  address: Address,
  nonce: WalletNonce,
  signature: Hex,
): Promise<boolean> {
  const client = publicClient('ethereum')
  return onChain('ethereum', async () => {
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
