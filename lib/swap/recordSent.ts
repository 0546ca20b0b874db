import { type NewTrade, recordTrade } from '../db/trade'
import { logger } from '../logger'

/**
 * Records a broadcast transaction as a `pending` trade. The transaction is already out, so a
 * failed write must not turn into an error the client would retry: it is logged, and the caller
 * still answers with the hash.
 */
export async function recordSent(trade: Omit<NewTrade, 'outcome' | 'logIndex'>): Promise<void> {
  await recordTrade(trade).catch((error: unknown) => {
    logger.error('trade not recorded', { network: trade.network, type: trade.type, error })
  })
}
