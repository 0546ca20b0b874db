import type { Address, Hex } from 'viem'
import {
  consumeNonceAndStartSession,
  listOutstandingNonces,
  storeNonce,
  type WalletNonce,
} from '../db/wallet'
import { loadAuthConfig } from '../config'
import { TooManyRequests, UNAUTHORIZED, Unauthorized } from '../errors'
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

const NONCE_WINDOW_SECONDS = NONCE_LIFETIME_MS / 1000

/**
 * The most nonces of one address that can be live at once: the cap counts per fixed window of a
 * nonce's lifetime, so the live ones span at most two windows. A login without `nonce` tries them
 * all by local recovery (DECISIONS §8.2).
 */
export function maxOutstandingNonces(): number {
  return 2 * loadAuthConfig().noncesPerAddress
}

/**
 * Issues a nonce for the address and the message to sign. Other outstanding nonces stay valid,
 * and no wallet record is written: a wallet becomes known at its first successful login. An
 * address is issued at most `NONCES_PER_ADDRESS` nonces per 5-minute window (429 beyond), so
 * the nonces a login without `nonce` tries stay few.
 */
export async function issueNonce(address: Address): Promise<{ nonce: number; message: string }> {
  const nonce = generateNonce()
  const stored = await storeNonce(address, nonce, {
    lifetimeSeconds: NONCE_WINDOW_SECONDS,
    cap: { limit: loadAuthConfig().noncesPerAddress, windowSeconds: NONCE_WINDOW_SECONDS },
  })
  if (!stored.stored) {
    throw new TooManyRequests(
      `too many sign-in nonces for this address; try again in ${stored.retryAfterSeconds} s`,
      stored.retryAfterSeconds,
    )
  }
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
 * signature is recovered locally against the named nonce or every outstanding one, with no RPC
 * call: one attempt however many are tried. A contract wallet's is checked on chain against the
 * named or newest nonce only, gas-capped. A check that gave no verdict (no outstanding nonce, the
 * node failed) gives its attempt back.
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
      limit: maxOutstandingNonces(),
      nonce: named,
    }),
  ])
  if (nonces.length === 0) {
    await attempt.release()
    throw rejected()
  }
  const signed = await signedNonce(address, nonces, signature).catch(async (error: unknown) => {
    await attempt.release()
    throw error
  })
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
  if (signatureKind(signature) === 'ecdsa') return recoverSignedNonce(address, nonces, signature)
  const newest = nonces[0]
  return newest && (await verifyContractSignature(address, newest, signature)) ? newest : undefined
}
