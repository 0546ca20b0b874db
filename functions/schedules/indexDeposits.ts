import type { ScheduledEvent } from 'aws-lambda'
import { logger } from '../../lib/logger'
import { indexDeposits } from '../../lib/trades/indexDeposits'

/** Every minute: each network's new blocks, from its cursor, recorded as deposits of our wallets. */
export async function runDepositIndexer() {
  const startedAt = Date.now()
  const networks = await indexDeposits()
  logger.info('deposits indexed', {
    networks: networks.map((run) => ({
      ...run,
      fromBlock: run.fromBlock?.toString(),
      toBlock: run.toBlock?.toString(),
    })),
    durationMs: Date.now() - startedAt,
  })
  return networks
}

export const handler = (_event: ScheduledEvent) => {
  logger.startInvocation()
  return runDepositIndexer()
}
