import * as z from '../../schemas/zod'
import { memoize, parseEnv } from './readEnv'

const positiveInt = z.pipe(z.coerce.number(), z.int().check(z.positive()))

// DECISIONS §9.1: what one deposit indexer run may do, per network, and what is dust.
const depositSchema = z.object({
  // A token deposit worth less than this (USD, from the catalog price) is not listed.
  DEPOSIT_DUST_USD: z._default(
    z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal number of USD')),
    '0.01',
  ),
  // Deposits into known wallets a run weighs past the dust floor (look-alike checks, marker
  // reads), shared fairly among wallets: the rest of a wallet's range waits in its lag.
  DEPOSIT_RUN_TRANSFERS: z._default(positiveInt, 50_000),
  // Transfers a run reads (catalog token logs, native and internal value), checked between
  // pieces of a range: the count-based bound on its reads that keeps it within its time limit.
  DEPOSIT_RUN_READS: z._default(positiveInt, 200_000),
  // Deposits worth at least this (USD) are listed before a wallet's smaller ones.
  DEPOSIT_FIRST_USD: z._default(
    z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal number of USD')),
    '1',
  ),
  // Deposits a run records, shared fairly among the wallets that received some.
  DEPOSIT_RUN_DEPOSITS: z._default(positiveInt, 2_000),
  // The safety stop: no new window or write starts with less than this left of the invocation.
  DEPOSIT_RUN_SAFETY_MS: z._default(positiveInt, 15_000),
})

export const loadDepositConfig = memoize(() => {
  const env = parseEnv(depositSchema)
  return {
    /** USD, as a decimal string (exact: compared in integers). */
    dustUsd: env.DEPOSIT_DUST_USD,
    runTransfers: env.DEPOSIT_RUN_TRANSFERS,
    runReads: env.DEPOSIT_RUN_READS,
    /** USD, as a decimal string: deposits worth this or more go first. */
    firstUsd: env.DEPOSIT_FIRST_USD,
    runDeposits: env.DEPOSIT_RUN_DEPOSITS,
    runSafetyMs: env.DEPOSIT_RUN_SAFETY_MS,
  }
})
