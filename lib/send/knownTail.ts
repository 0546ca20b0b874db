import { AsyncLocalStorage } from 'node:async_hooks'
import type { TradeTail } from '../db/tradeTail'

// Where a sending request's next trade goes: its wallet's tail counter, read beside the request's
// other reads (sendOnce) and moved by each trade the request records (approvals, then the swap;
// a submit's N transactions), so that each record is one DynamoDB call. Per request, scoped by
// AsyncLocalStorage, and nowhere else: recordTrade takes it as a first guess that its transaction
// checks, so a stale one costs one more read, never a wrong position.

interface KnownTail {
  wallet: string
  tail?: TradeTail
}

const requestTails = new AsyncLocalStorage<KnownTail>()

/** Runs a sending request of `wallet` with a tail of its own, unknown until noted. */
export function withKnownTail<Result>(wallet: string, run: () => Promise<Result>): Promise<Result> {
  return requestTails.run({ wallet: wallet.toLowerCase() }, run)
}

/** The request's tail of `wallet`, if it read or moved it. */
export function knownTail(wallet: string): TradeTail | undefined {
  const known = requestTails.getStore()
  return known?.wallet === wallet.toLowerCase() ? known.tail : undefined
}

/** Notes the tail of `wallet` as just read or moved, for the request's next record. */
export function noteTail(wallet: string, tail: TradeTail): void {
  const known = requestTails.getStore()
  if (known?.wallet === wallet.toLowerCase()) known.tail = tail
}
