import { loadDepositConfig } from '../config'

// What one indexer run may still do on one network (DECISIONS §9.1, bounded work): transfers to
// examine and deposits to record, counted, with the invocation's time as a safety stop only.

export type StopReason = 'budget' | 'time'

export interface RunLimits {
  /** Transfers a run examines, checked between block windows. */
  transfers: number
  /** Deposits a run records, shared fairly among wallets. */
  deposits: number
}

export interface RunBudget {
  readonly limits: RunLimits
  /** Counts `count` transfers examined. */
  examine(count: number): void
  /** Transfers examined so far. */
  readonly examined: number
  /** Why no new work should start now, or undefined while it may. */
  stop(): StopReason | undefined
  /** Whether the invocation is too near its end to start a write. */
  timeUp(): boolean
}

/**
 * A run's budget: `limits` (the configured ones unless given), and `remainingMs`, the invocation's
 * time left (a Lambda context's getRemainingTimeInMillis): no work starts with less than
 * `DEPOSIT_RUN_SAFETY_MS` left. Without it only the counts stop a run.
 */
export function createRunBudget(
  limits: Partial<RunLimits> = {},
  remainingMs?: () => number,
): RunBudget {
  const config = loadDepositConfig()
  const resolved = {
    transfers: limits.transfers ?? config.runTransfers,
    deposits: limits.deposits ?? config.runDeposits,
  }
  let examined = 0
  const timeUp = () => remainingMs !== undefined && remainingMs() < config.runSafetyMs
  return {
    limits: resolved,
    examine(count) {
      examined += count
    },
    get examined() {
      return examined
    },
    stop() {
      if (timeUp()) return 'time'
      return examined >= resolved.transfers ? 'budget' : undefined
    },
    timeUp,
  }
}
