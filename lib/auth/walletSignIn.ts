import { type Address, type Hex, isErc6492Signature } from 'viem'
import { spendClientBudget } from '../db/clientBudget'
import { listClientNonces, storeClientNonce, type WalletNonce } from '../db/nonce'
import { consumeNonceAndStartSession } from '../db/wallet'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { countMetric } from '../metrics'
import { type ReservedAttempt, reserveAttempt } from './attemptBudget'
import { mintNonce, NONCE_CLOCK_SKEW_SECONDS, openNonce } from './mintNonce'
import { createSessionRecord, issueTokens, type SessionTokens } from './sessions'
import {
  contractCheckRpcCalls,
  hasContractCode,
  mayBeEcdsa,
  NONCE_LIFETIME_MS,
  recoverSignedNonce,
  signInMessage,
  verifyContractSignature,
} from './siwe'

const NONCE_LIFETIME_SECONDS = NONCE_LIFETIME_MS / 1000

/**
 * A login without `nonce` tries at most this many of its own client's newest nonces for the
 * address, by local recovery (a few ms each); other clients' nonces are never among them.
 */
export const NONCE_TRIES_WITHOUT_FIELD = 5

/**
 * Issues a nonce for the address and the message to sign (DECISIONS §10.4). Never refused for the
 * address: the route's budget is per client. The nonce carries its own MAC (mintNonce), so a login
 * that names it needs nothing kept; it is also kept among this client's nonces for the address,
 * for a login from this client that does not name it. No wallet record is written: a wallet
 * becomes known at its first successful login.
 */
export async function issueNonce(
  address: Address,
  sourceIp: string,
  now = new Date(),
): Promise<{ nonce: number; message: string }> {
  const nonce = await mintNonce(address, now)
  await storeClientNonce(address, sourceIp, nonce, {
    lifetimeSeconds: NONCE_LIFETIME_SECONDS,
    requestedAt: now,
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
  /** The caller's address: nonces without `nonce` and the costly checks are per client. */
  sourceIp: string
  now?: Date
}

/**
 * Verifies a signed nonce, marks it used and starts a wallet session (DECISIONS §9.4, §10.4: a
 * valid signature always signs its owner in). The nonce is the named one, verified by its MAC, or
 * one of the newest NONCE_TRIES_WITHOUT_FIELD issued to this client. A 65-byte signature is
 * recovered locally first, with no RPC call and no budget. Otherwise, or when recovery does not
 * give the address, it may be a contract wallet's (EIP-1271, ERC-6492), checked on chain against
 * the named or newest nonce (signInAsContract).
 */
export async function signInWithWallet(
  address: Address,
  signature: Hex,
  { nonce: named, sourceIp, now = new Date() }: WalletSignInParameters,
): Promise<SessionTokens> {
  const nonces = await candidateNonces(address, named, sourceIp, now)
  if (mayBeEcdsa(signature)) {
    const signed = await recoverSignedNonce(address, nonces, signature)
    if (signed) return startSession(address, signed)
  }
  const newest = nonces[0]
  if (!newest) throw rejected()
  return signInAsContract(address, newest, signature, { sourceIp, now })
}

/** The named nonce if the service issued it and it is live; else this client's newest. */
async function candidateNonces(
  address: Address,
  named: number | undefined,
  sourceIp: string,
  now: Date,
): Promise<WalletNonce[]> {
  if (named !== undefined) {
    const opened = await openNonce(address, named, {
      lifetimeSeconds: NONCE_LIFETIME_SECONDS,
      now,
    })
    return opened ? [opened] : []
  }
  return listClientNonces(address, sourceIp, {
    issuedAfter: new Date(now.getTime() - NONCE_LIFETIME_MS),
    limit: NONCE_TRIES_WITHOUT_FIELD,
  })
}

/**
 * A contract wallet's check costs the client: its RPC calls (the worst case, charged before the
 * first), then, once `eth_getCode` found code (an address without any is refused there, unless
 * the signature is ERC-6492-wrapped), a credential check of this client at this address (5
 * failures per 15 minutes), given back on success or when the node gave no verdict.
 */
async function signInAsContract(
  address: Address,
  nonce: WalletNonce,
  signature: Hex,
  { sourceIp, now }: { sourceIp: string; now: Date },
): Promise<SessionTokens> {
  await spendClientBudget('rpc', sourceIp, { weight: contractCheckRpcCalls(signature), now })
  if (!isErc6492Signature(signature) && !(await hasContractCode(address))) throw rejected()
  const attempt = await reserveAttempt('wallet', address, sourceIp, now)
  const valid = await verifyContractSignature(address, nonce, signature).catch(
    async (error: unknown) => {
      await attempt.release()
      throw error
    },
  )
  if (!valid) throw rejected()
  return startSession(address, nonce, attempt)
}

async function startSession(
  address: Address,
  signed: WalletNonce,
  attempt?: ReservedAttempt,
): Promise<SessionTokens> {
  const session = createSessionRecord('wallet', address)
  const issuedAtSeconds = Math.floor(signed.issuedAt.getTime() / 1000)
  const started = await consumeNonceAndStartSession({
    address,
    // The mark outlives every moment the nonce could still be taken (the login's clock may lag).
    usedNonce: {
      nonce: signed.nonce,
      expiresAt: issuedAtSeconds + NONCE_LIFETIME_SECONDS + NONCE_CLOCK_SKEW_SECONDS,
    },
    session,
    ...(attempt && { attemptKey: attempt.key }),
  })
  if (!started) throw rejected()
  const tokens = await issueTokens(session)
  countMetric('SignIn', { Method: 'wallet' })
  return tokens
}
