import { blockHashAt } from '../chain/blockHashAt'
import type { ChainClient } from '../chain/clients'
import { listJournalledDeposits, removeJournalledDeposit } from '../db/depositJournal'
import { listDepositLags, saveDepositLag } from '../db/depositLags'
import { logger } from '../logger'
import type { NetworkName } from '../networkNames'

// DECISIONS §7.2: after a reorganisation deeper than the confirmation depth, no deposit of an
// orphaned block stays recorded.

/**
 * How far back a reorganisation is looked for and re-scanned once detected; one deeper than this
 * (and than the confirmation depth) needs an operator to set the cursor back.
 */
export const REORG_WINDOW = 128n

/**
 * After a reorganisation below `nextBlock`: removes every journalled deposit of the last
 * REORG_WINDOW blocks whose block is no longer canonical, moves lagging wallets that start in
 * those blocks back to the window's start, and answers where to scan again from (the window's
 * start: deposits still canonical are not recorded twice, thanks to their markers).
 */
export async function rollBackOrphans(
  client: ChainClient,
  network: NetworkName,
  nextBlock: bigint,
): Promise<{ rescanFrom: bigint; removed: number }> {
  const rescanFrom = nextBlock > REORG_WINDOW ? nextBlock - REORG_WINDOW : 0n
  const journalled = await listJournalledDeposits(network, rescanFrom)
  const heights = [...new Set(journalled.map((deposit) => deposit.blockNumber))]
  const canonical = new Map(
    await Promise.all(
      heights.map(async (height) => [height, await blockHashAt(client, height)] as const),
    ),
  )
  let removed = 0
  for (const deposit of journalled) {
    if (canonical.get(deposit.blockNumber) === deposit.blockHash) continue
    await removeJournalledDeposit(deposit)
    removed += 1
  }
  // A log index read in an orphaned block says nothing of the new one: read it from its start.
  for (const lag of await listDepositLags(network)) {
    if (lag.fromBlock < rescanFrom) continue
    await saveDepositLag(network, { ...lag, fromBlock: rescanFrom, fromLog: 0 }, lag)
  }
  logger.warn('deposit indexer: reorganisation rolled back', { network, removed })
  return { rescanFrom, removed }
}
