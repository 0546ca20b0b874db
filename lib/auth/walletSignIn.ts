import type { Address, Hex } from 'viem'
import { consumeNonceAndStartSession, getNonce, storeNonce } from '../db/wallet'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { createSessionRecord, issueTokens, type SessionTokens } from './sessions'
import { generateNonce, signInMessage, verifySignIn } from './siwe'

/** Issues a fresh nonce for the address (creating its wallet record) and the message to sign. */
export async function issueNonce(address: Address): Promise<{ nonce: number; message: string }> {
  const nonce = generateNonce()
  await storeNonce(address, nonce)
  return { nonce: nonce.nonce, message: signInMessage(address, nonce) }
}

const rejected = () =>
  new Unauthorized(
    UNAUTHORIZED.credentialsRejected,
    'the signature does not match this address and its current nonce',
  )

/** Verifies the signed nonce, consumes it and starts a wallet session. */
export async function signInWithWallet(address: Address, signature: Hex): Promise<SessionTokens> {
  const nonce = await getNonce(address)
  if (!nonce || !(await verifySignIn({ address, nonce, signature }))) throw rejected()
  const session = createSessionRecord('wallet', address)
  const consumed = await consumeNonceAndStartSession({
    address,
    usedNonce: nonce.nonce,
    fresh: generateNonce(),
    session,
  })
  if (!consumed) throw rejected()
  return issueTokens(session)
}
