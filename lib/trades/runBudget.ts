import { loadDepositConfig } from '../config/depositConfig'

// What one indexer run may still do on one network (DECISIONS §9.1, §10.4): transfers to read,
// deposits into known wallets to weigh past the dust floor (shared per wallet) and deposits to
// record, counted, with the invocation's time as a safety stop only.

export type StopReason = 'budget' | 'time'

export interface RunLimits {
  /** Deposits into known wallets weighed past the dust floor, shared fairly among wallets. */
  transfers: number
  /** Deposits a run records, shared fairly among wallets. */
  deposits: number
  /** Transfers a run reads (logs, native and internal value), checked between pieces. */
  reads: number
}

export interface RunBudget {
  readonly limits: RunLimits
  /** Counts `count` transfers read. */
  read(count: number): void
  /** Transfers read so far. */
  readonly examined: number
  /** Why no new read should start now, or undefined while it may. */
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
    reads: limits.reads ?? config.runReads,
  }
  let examined = 0
  const timeUp = () => remainingMs !== undefined && remainingMs() < config.runSafetyMs
  return {
    limits: resolved,
    read(count) {
      examined += count
    },
    get examined() {
      return examined
    },
    stop() {
      if (timeUp()) return 'time'
      return examined >= resolved.reads ? 'budget' : undefined
    },
    timeUp,
  }
}
