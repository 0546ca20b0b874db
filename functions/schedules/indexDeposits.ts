import type { Context, ScheduledEvent } from 'aws-lambda'
import { logger } from '../../lib/logger'
import { indexDeposits } from '../../lib/trades/indexDeposits'

/**
 * Every minute: each network's new blocks, from its cursor, recorded as deposits of our wallets,
 * as much as the run's budget allows and stopping well before the invocation's time is up.
 */
export async function runDepositIndexer(remainingMs?: () => number) {
  const startedAt = Date.now()
  const networks = await indexDeposits({ remainingMs })
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

export const handler = (
  _event: ScheduledEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
) => {
  logger.startInvocation()
  return runDepositIndexer(context && (() => context.getRemainingTimeInMillis()))
}
