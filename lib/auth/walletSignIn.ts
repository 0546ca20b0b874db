import type { Address, Hex } from 'viem'
import { spendClientBudget } from '../db/clientBudget'
import {
  consumeNonceAndStartSession,
  listOutstandingNonces,
  type StoredNonce,
  storeNonce,
} from '../db/wallet'
import { loadAuthConfig } from '../config'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { type ReservedAttempt, reserveAttempt } from './attemptBudget'
import { createSessionRecord, issueTokens, type SessionTokens } from './sessions'
import {
  contractCheckRpcCalls,
  generateNonce,
  NONCE_LIFETIME_MS,
  recoverSignedNonce,
  signatureKind,
  signInMessage,
  verifyContractSignature,
} from './siwe'
import { countMetric } from '../metrics'

/**
 * A login without `nonce` tries at most this many of the address's newest nonces, by local
 * recovery (a few ms each): the client that names its nonce is never affected by the count.
 */
export const NONCE_TRIES_WITHOUT_FIELD = 20

/**
 * Issues a nonce for the address and the message to sign. Never refused for the address: the
 * route's budget is per client (DECISIONS §9.4). Other outstanding nonces stay valid until
 * `NONCES_KEPT_PER_ADDRESS` newer ones have been issued (the oldest gives way), and no wallet
 * record is written: a wallet becomes known at its first successful login.
 */
export async function issueNonce(address: Address): Promise<{ nonce: number; message: string }> {
  const nonce = generateNonce()
  await storeNonce(address, nonce, {
    lifetimeSeconds: NONCE_LIFETIME_MS / 1000,
    kept: loadAuthConfig().noncesKeptPerAddress,
  })
  return { nonce: nonce.nonce, message: signInMessage(address, nonce) }
}

const rejected = () =>
  new Unauthorized(
    UNAUTHORIZED.credentialsRejected,
    'the signature does not match this address and an outstanding nonce',
  )

export interface WalletSignInParameters {
  /** The nonce the client signed, when it names it. */
  nonce?: number
  /** The caller's address: a contract wallet's check is budgeted per client. */
  sourceIp: string
  now?: Date
}

/**
 * Verifies a signed nonce, consumes it and starts a wallet session (DECISIONS §9.4: a valid
 * signature always signs its owner in). An EOA's 65-byte signature is recovered locally against
 * the named nonce or the newest NONCE_TRIES_WITHOUT_FIELD, with no RPC call and no budget: a
 * wrong one costs nothing to refuse, so failures are not counted and never lock the address. A
 * contract wallet's is checked on chain against the named or newest nonce only, gas-capped, and
 * costs the client: its RPC calls from the client's RPC budget, and a credential check of this
 * client at this address (5 failures per 15 minutes), given back on success or when the check
 * gave no verdict (no outstanding nonce, the node failed).
 */
export async function signInWithWallet(
  address: Address,
  signature: Hex,
  { nonce: named, sourceIp, now = new Date() }: WalletSignInParameters,
): Promise<SessionTokens> {
  const ecdsa = signatureKind(signature) === 'ecdsa'
  const listing = listOutstandingNonces(address, {
    issuedAfter: new Date(now.getTime() - NONCE_LIFETIME_MS),
    limit: ecdsa ? NONCE_TRIES_WITHOUT_FIELD : 1,
    nonce: named,
  })
  if (ecdsa) {
    const nonces = await listing
    const signed = await recoverSignedNonce(address, nonces, signature)
    if (!signed) throw rejected()
    return startSession(address, signed)
  }
  const [attempt, nonces] = await reserveAll(
    reserveAttempt('wallet', address, sourceIp, now),
    listing,
    spendClientBudget('rpc', sourceIp, { weight: contractCheckRpcCalls(signature), now }),
  )
  const newest = nonces[0]
  if (!newest) {
    await attempt.release()
    throw rejected()
  }
  const valid = await verifyContractSignature(address, newest, signature).catch(
    async (error: unknown) => {
      await attempt.release()
      throw error
    },
  )
  if (!valid) throw rejected()
  return startSession(address, newest, attempt)
}

/**
 * The attempt and the nonces, once the RPC budget is spent too; when any of the three fails, the
 * attempt (if reserved) is given back before the failure is thrown.
 */
async function reserveAll(
  attempt: Promise<ReservedAttempt>,
  nonces: Promise<StoredNonce[]>,
  budget: Promise<void>,
): Promise<[ReservedAttempt, StoredNonce[]]> {
  const [reserved, listed, spent] = await Promise.allSettled([attempt, nonces, budget])
  if (reserved.status === 'rejected') throw reserved.reason
  if (listed.status === 'rejected' || spent.status === 'rejected') {
    await reserved.value.release()
    throw listed.status === 'rejected' ? listed.reason : (spent as PromiseRejectedResult).reason
  }
  return [reserved.value, listed.value]
}

async function startSession(
  address: Address,
  usedNonce: StoredNonce,
  attempt?: ReservedAttempt,
): Promise<SessionTokens> {
  const session = createSessionRecord('wallet', address)
  const started = await consumeNonceAndStartSession({
    address,
    usedNonce,
    session,
    ...(attempt && { attemptKey: attempt.key }),
  })
  if (!started) throw rejected()
  const tokens = await issueTokens(session)
  countMetric('SignIn', { Method: 'wallet' })
  return tokens
}
