import { createHash } from 'node:crypto'
import { withCallBudget } from '../chain/callBudget'
import { claimIdempotencyKey, releaseIdempotencyKey } from '../db/idempotency'
import { readTradeTail } from '../db/tradeTail'
import { BadRequest, Conflict, Unprocessable } from '../errors'
import { logger } from '../logger'
import type { Preview } from '../preview/previewSequence'
import { noteTail, withKnownTail } from './knownTail'
import { recordSent, type SentTrade } from './recordSent'

export interface Sent {
  txId: `0x${string}`
  /** Every transaction the request sent, in order, when it sent several (client-signed submits). */
  txIds?: `0x${string}`[]
  /** What the transactions were simulated to do before they were sent (a `{key}` route's). */
  preview?: Preview
}

/** What a send broadcast, and the trade of its last transaction, recorded by sendOnce. */
export interface Broadcast extends Sent {
  trade: SentTrade
}

export interface SendOnceParameters {
  /** The checksummed wallet of the access token: keys are scoped to it. */
  wallet: string
  /** The `Idempotency-Key` header, if the client sent one. */
  key: string | undefined
  /** What the request asks for (route and parsed body, never the private key). */
  request: unknown
}

/** A request that sends transactions: reads first, then broadcasts. */
export interface SendOperation<Plan> {
  /** The reads and the checks on them: nothing irreversible. */
  plan(): Promise<Plan>
  /** Signs (or takes signed) and broadcasts; throws only before its first broadcast. */
  send(plan: Plan): Promise<Broadcast>
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/**
 * Runs a sending request once per (wallet, Idempotency-Key): the key's claim and the plan's reads
 * leave together (the claim, a write, once the route's session is admitted: lib/admission.ts);
 * then the send; then one transaction recording the last trade and completing the key. Nothing is
 * sent unless the claim held; a key claimed by a request that then fails before broadcasting is
 * freed. A retry gets the first hashes and sends nothing; 409 while the first runs, 422 when the
 * key was used for a different request. Once a transaction is out its hash is the answer, even if
 * recording fails.
 */
export function sendOnce<Plan>(
  parameters: SendOnceParameters,
  operation: SendOperation<Plan>,
): Promise<Sent> {
  // Its reads call tokens the caller names: capped, and a budget per request (DECISIONS §8.2).
  // Its trades take positions from a tail it reads beside them (lib/send/knownTail.ts).
  return withCallBudget(() =>
    withKnownTail(parameters.wallet, () => sendOnceBudgeted(parameters, operation)),
  )
}

async function sendOnceBudgeted<Plan>(
  { wallet, key, request }: SendOnceParameters,
  operation: SendOperation<Plan>,
): Promise<Sent> {
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw new BadRequest('Idempotency-Key must be 1 to 255 visible ASCII characters')
  }
  const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex')
  const [claimed, planned, tail] = await Promise.allSettled([
    key === undefined ? undefined : claimIdempotencyKey({ wallet, key, fingerprint }),
    // Started like the claim even if `plan` throws at once: the claim is never left behind.
    new Promise<Plan>((resolve) => resolve(operation.plan())),
    // Where the trade will go (recordTrade checks it is still free), read here and not after the
    // send, so recording stays one call.
    readTradeTail(wallet),
  ])
  const held = key !== undefined && claimed.status === 'fulfilled' && claimed.value === undefined
  const release = async () => {
    if (!held) return
    await releaseIdempotencyKey({ wallet, key }).catch((releaseError: unknown) => {
      // The key stays in progress (409 on retry until it expires): safe, only less convenient.
      logger.warn('idempotency key not released', { error: releaseError })
    })
  }
  // A claim that failed may have been written: it is not released (409 until it expires).
  if (claimed.status === 'rejected') throw claimed.reason
  const existing = claimed.value
  if (existing) {
    // A retry: the first request's answer, whatever the reads found meanwhile.
    if (existing.fingerprint !== fingerprint) {
      throw new Unprocessable('this Idempotency-Key was used for a different request')
    }
    if (existing.status === 'completed' && existing.txId) {
      return { txId: existing.txId, ...(existing.txIds && { txIds: existing.txIds }) }
    }
    throw new Conflict('a request with this Idempotency-Key is still in progress')
  }
  if (tail.status === 'fulfilled') noteTail(wallet, tail.value)
  let sent: Broadcast
  try {
    if (planned.status === 'rejected') throw planned.reason
    sent = await operation.send(planned.value)
  } catch (error) {
    await release()
    throw error
  }
  const { txId, txIds } = sent
  await recordSent(sent.trade, key === undefined ? undefined : { wallet, key, txId, txIds })
  return { txId, ...(txIds && { txIds }), ...(sent.preview && { preview: sent.preview }) }
}
