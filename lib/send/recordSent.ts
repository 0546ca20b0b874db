import {
  completeIdempotencyKey,
  type CompleteIdempotencyKeyParameters,
  completeIdempotencyKeyItem,
} from '../db/idempotency'
import { recordTrade } from '../db/trade'
import type { NewTrade } from '../db/tradeItem'
import { logger } from '../logger'
import { knownTail, noteTail } from './knownTail'

export type SentTrade = Omit<NewTrade, 'outcome' | 'logIndex'>

/**
 * Records a broadcast transaction as a `pending` trade, with the request's Idempotency-Key marked
 * done in the same transaction when it has one (`completion`): one DynamoDB call, from the tail
 * the request knows (lib/send/knownTail.ts), which it then moves. The
 * transaction is already out, so a failed write must not turn into an error the client would
 * retry: it is logged, the key is completed alone, and the caller still answers with the hash.
 */
export async function recordSent(
  trade: SentTrade,
  completion?: CompleteIdempotencyKeyParameters,
): Promise<void> {
  const alongside = completion ? [completeIdempotencyKeyItem(completion)] : []
  const recorded = await recordTrade(trade, { alongside, tail: knownTail(trade.wallet) }).then(
    ({ tail }) => {
      noteTail(trade.wallet, tail)
      return true
    },
    (error: unknown) => {
      logger.error('trade not recorded', { network: trade.network, type: trade.type, error })
      return false
    },
  )
  if (recorded || !completion) return
  await completeIdempotencyKey(completion).catch((error: unknown) => {
    // The key stays in progress: a retry is refused (409) rather than sent again.
    logger.error('idempotency key not completed', { error })
  })
}
