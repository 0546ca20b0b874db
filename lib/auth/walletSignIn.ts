import type { Address, Hex } from 'viem'
import {
  consumeNonceAndStartSession,
  listOutstandingNonces,
  storeNonce,
  type WalletNonce,
} from '../db/wallet'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { reserveAttempt } from './attemptBudget'
import { createSessionRecord, issueTokens, type SessionTokens } from './sessions'
import {
  generateNonce,
  NONCE_LIFETIME_MS,
  recoverSignedNonce,
  signatureKind,
  signInMessage,
  verifyContractSignature,
} from './siwe'
import { countMetric } from '../metrics'

// DECISIONS §7.1: without a named nonce, at most this many outstanding ones are tried.
export const MAX_NONCES_TRIED = 5

/**
 * Issues a nonce for the address and the message to sign. Other outstanding nonces stay valid,
 * and no wallet record is written: a wallet becomes known at its first successful login.
 */
export async function issueNonce(address: Address): Promise<{ nonce: number; message: string }> {
  const nonce = generateNonce()
  await storeNonce(address, nonce, NONCE_LIFETIME_MS / 1000)
  return { nonce: nonce.nonce, message: signInMessage(address, nonce) }
}

const rejected = () =>
  new Unauthorized(
    UNAUTHORIZED.credentialsRejected,
    'the signature does not match this address and an outstanding nonce',
  )

/**
 * Verifies a signed nonce, consumes it and starts a wallet session. A credential check is
 * reserved first (5 per address per 15 minutes, however many arrive at once). An EOA's 65-byte
 * signature is recovered locally against the named nonce or the newest five, with no RPC call; a
 * contract wallet's is checked on chain against the named or newest nonce only, gas-capped.
 */
export async function signInWithWallet(
  address: Address,
  signature: Hex,
  named?: number,
  now = new Date(),
): Promise<SessionTokens> {
  const [attempt, nonces] = await Promise.all([
    reserveAttempt('wallet', address, now),
    listOutstandingNonces(address, {
      issuedAfter: new Date(now.getTime() - NONCE_LIFETIME_MS),
      limit: MAX_NONCES_TRIED,
      nonce: named,
    }),
  ])
  const signed = await signedNonce(address, nonces, signature)
  if (!signed) throw rejected()
  const session = createSessionRecord('wallet', address)
  const attemptKey = attempt.key
  if (!(await consumeNonceAndStartSession({ address, usedNonce: signed, session, attemptKey }))) {
    throw rejected()
  }
  const tokens = await issueTokens(session)
  countMetric('SignIn', { Method: 'wallet' })
  return tokens
}

async function signedNonce(
  address: Address,
  nonces: WalletNonce[],
  signature: Hex,
): Promise<WalletNonce | undefined> {
  if (nonces.length === 0) return undefined
  if (signatureKind(signature) === 'ecdsa') return recoverSignedNonce(address, nonces, signature)
  const newest = nonces[0]
  return newest && (await verifyContractSignature(address, newest, signature)) ? newest : undefined
}
