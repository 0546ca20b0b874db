import type { ScheduledEvent } from 'aws-lambda'
import { logger } from '../../lib/logger'
import { reconcileTrades } from '../../lib/trades/reconcileTrades'

/** Every minute: pending trades whose receipts are known become successful or failed. */
export async function runTradeReconciler() {
  const startedAt = Date.now()
  const networks = await reconcileTrades()
  logger.info('trades reconciled', { networks, durationMs: Date.now() - startedAt })
  return networks
}

export const handler = (_event: ScheduledEvent) => {
  logger.startInvocation()
  return runTradeReconciler()
}
