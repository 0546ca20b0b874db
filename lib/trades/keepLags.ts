import { type DepositLag, deleteDepositLag, saveDepositLag } from '../db/depositLags'
import { mapConcurrently } from '../mapConcurrently'
import type { NetworkName } from '../networkNames'
import type { LagTransfers } from './readLaggingTransfers'
import type { WalletOutcome } from './recordRunDeposits'
import type { IncomingTransfer } from './transferSources'

// Keeping track of the wallets a run left deposits of (DECISIONS §9.1: resumable inside a range,
// at a block and a log index): lib/db/depositLags.ts.

type Position = { block: bigint; log: number }

// Lag writes at once (a run after an outage may leave many wallets with a deposit or two).
const LAG_WRITES_IN_PARALLEL = 16

const positionOf = (transfer: IncomingTransfer): Position => ({
  block: transfer.block.number,
  log: typeof transfer.place === 'number' ? transfer.place : 0,
})

function earlier(a: Position | undefined, b: Position | undefined): Position | undefined {
  if (!a || !b) return a ?? b
  if (a.block !== b.block) return a.block < b.block ? a : b
  return a.log <= b.log ? a : b
}

/** Per lagging wallet (lower-cased), where its range is not read yet: not served, or cut. */
function unreadOf(lags: readonly DepositLag[], lagged: readonly LagTransfers[]) {
  const unread = new Map<string, Position>()
  for (const lag of lags) {
    const read = lagged.find((entry) => entry.lag === lag)
    const from = { block: lag.fromBlock, log: lag.fromLog }
    const key = lag.wallet.toLowerCase()
    if (!read || read.readTo < from.block) unread.set(key, from)
    else if (read.readTo < lag.toBlock - 1n) unread.set(key, { block: read.readTo + 1n, log: 0 })
  }
  return unread
}

/**
 * Where each wallet's deposits stand after a run: a lag from the first one left (a block and a
 * log index: of its read-back range, or of what the run scanned) to the new cursor, or none. Each
 * is written over the one the run read, before the cursor moves (a run that fails in between
 * leaves lags a later run reads again: reads only). Returns the wallets left lagging.
 */
export async function keepLags(
  network: NetworkName,
  parameters: {
    lags: readonly DepositLag[]
    lagged: readonly LagTransfers[]
    outcomes: readonly WalletOutcome[]
    cursorTo: bigint
    /** Wallets whose transfers the scan did not read from a block on (a flood's target). */
    leftOut: ReadonlyMap<string, { wallet: `0x${string}`; fromBlock: bigint }>
  },
): Promise<number> {
  const { lags, lagged, outcomes, cursorTo, leftOut } = parameters
  const unread = unreadOf(lags, lagged)
  for (const [key, { fromBlock }] of leftOut) {
    const position = earlier(unread.get(key), { block: fromBlock, log: 0 })
    if (position) unread.set(key, position)
  }
  const served = new Set(lagged.map((read) => read.lag.wallet.toLowerCase()))
  const byWallet = new Map(outcomes.map((outcome) => [outcome.wallet.toLowerCase(), outcome]))
  const lagOf = new Map(lags.map((lag) => [lag.wallet.toLowerCase(), lag]))
  const now = new Date().toISOString()
  let lagging = 0
  const keys = [...new Set([...lagOf.keys(), ...byWallet.keys(), ...leftOut.keys()])]
  await mapConcurrently(keys, LAG_WRITES_IN_PARALLEL, async (key) => {
    const lag = lagOf.get(key)
    const outcome = byWallet.get(key)
    const left = outcome?.firstLeft && positionOf(outcome.firstLeft)
    const from = earlier(unread.get(key), left)
    // Nothing left, or nothing before the cursor (the next scan reads it again anyway).
    if (!from || from.block >= cursorTo) {
      if (lag) await deleteDepositLag(network, lag)
      return
    }
    lagging += 1
    const wallet = outcome?.wallet ?? lag?.wallet ?? leftOut.get(key)?.wallet
    if (!wallet) return
    const next: DepositLag = {
      wallet,
      fromBlock: from.block,
      fromLog: from.log,
      toBlock: lag && lag.toBlock > cursorTo ? lag.toBlock : cursorTo,
      servedAt: lag && !served.has(key) ? lag.servedAt : now,
    }
    const same =
      lag?.fromBlock === next.fromBlock &&
      lag.fromLog === next.fromLog &&
      lag.toBlock === next.toBlock &&
      lag.servedAt === next.servedAt
    if (!same) await saveDepositLag(network, next, lag)
  })
  return lagging
}
