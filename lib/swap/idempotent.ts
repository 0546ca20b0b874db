import { createHash } from 'node:crypto'
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '../db/idempotency'
import { BadRequest, Conflict, Unprocessable } from '../errors'
import { logger } from '../logger'

export interface Sent {
  txId: `0x${string}`
  /** Every transaction the request sent, in order, when it sent several (client-signed submits). */
  txIds?: `0x${string}`[]
}

export interface IdempotentParameters {
  /** The checksummed wallet of the access token: keys are scoped to it. */
  wallet: string
  /** The `Idempotency-Key` header, if the client sent one. */
  key: string | undefined
  /** What the request asks for (route and parsed body, never the private key). */
  request: unknown
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/**
 * Runs `send` once per (wallet, Idempotency-Key): a retry gets the first transaction hash and
 * sends nothing. Answers 409 while the first request runs and 422 when the key was used for a
 * different request. `send` must throw only before it broadcasts: a failure frees the key.
 */
export async function idempotent(
  { wallet, key, request }: IdempotentParameters,
  send: () => Promise<Sent>,
): Promise<Sent> {
  if (key === undefined) return send()
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new BadRequest('Idempotency-Key must be 1 to 255 visible ASCII characters')
  }
  const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex')
  const existing = await claimIdempotencyKey({ wallet, key, fingerprint })
  if (existing) {
    if (existing.fingerprint !== fingerprint) {
      throw new Unprocessable('this Idempotency-Key was used for a different request')
    }
    if (existing.status === 'completed' && existing.txId) {
      return { txId: existing.txId, ...(existing.txIds && { txIds: existing.txIds }) }
    }
    throw new Conflict('a request with this Idempotency-Key is still in progress')
  }
  let sent: Sent
  try {
    sent = await send()
  } catch (error) {
    await releaseIdempotencyKey({ wallet, key }).catch((releaseError: unknown) => {
      // The key stays in progress (409 on retry until it expires): safe, only less convenient.
      logger.warn('idempotency key not released', { error: releaseError })
    })
    throw error
  }
  await completeIdempotencyKey({ wallet, key, txId: sent.txId, txIds: sent.txIds }).catch(
    (completeError: unknown) => {
      // The transaction is out, so the client gets its hash; the key stays in progress and a
      // retry is refused rather than sent again.
      logger.error('idempotency key not completed', { error: completeError })
    },
  )
  return sent
}
