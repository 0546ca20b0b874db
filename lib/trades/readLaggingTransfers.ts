import type { Address } from 'viem'
import type { ChainClient } from '../chain/clients'
import { inChunks } from '../chain/splitReads'
import { FILTER_RECIPIENTS_MAX } from '../chain/transferLogs'
import type { DepositLag } from '../db/depositLags'
import type { RunBudget } from './runBudget'
import { type IncomingTransfer, readTokenTransfers } from './transferSources'

// The token transfers lagging wallets have not had recorded yet (lib/db/depositLags.ts): read
// back for those wallets alone (eth_getLogs with topic 2 = up to 1,000 of them), each from exactly
// the block and log index where its last run stopped, so other wallets' transfers are neither
// read nor waited for. Native value cannot be read back by recipient, so it is never left behind
// (recordRunDeposits).

export interface LagTransfers {
  lag: DepositLag
  /** The wallet's token transfers from the lag's start, in order. */
  transfers: IncomingTransfer[]
  /** The last block read whole: `lag.toBlock - 1` or beyond when its whole range was. */
  readTo: bigint
}

/**
 * Reads the lags' ranges, least recently served first, up to 1,000 wallets a query over the span
 * of their ranges, stopping between two pieces once `transfers` have been read (the run's transfer
 * budget counts them too); no query starts once the run's time is nearly up.
 */
export async function readLaggingTransfers(
  client: ChainClient,
  lags: readonly DepositLag[],
  options: { maxRange: bigint; tokens: readonly Address[]; transfers: number; budget: RunBudget },
): Promise<LagTransfers[]> {
  const { maxRange, tokens, transfers: cap, budget } = options
  const read: LagTransfers[] = []
  let count = 0
  for (const chunk of inChunks(lags, FILTER_RECIPIENTS_MAX)) {
    if (count >= cap || budget.timeUp()) break
    const wallets = chunk.map((lag) => lag.wallet)
    const fromBlock = chunk.reduce(
      (min, lag) => (lag.fromBlock < min ? lag.fromBlock : min),
      chunk[0]?.fromBlock ?? 0n,
    )
    const toBlock = chunk.reduce((max, lag) => (lag.toBlock > max ? lag.toBlock : max), 0n) - 1n
    const answer = await readTokenTransfers(client, {
      fromBlock,
      toBlock,
      maxRange,
      tokens,
      recipients: wallets,
      knownWallets: () => Promise.resolve(wallets),
      more: (logs) => count + logs < cap,
    })
    count += answer.transfers.length
    budget.read(answer.transfers.length)
    for (const lag of chunk) {
      const wallet = lag.wallet.toLowerCase()
      const after = (transfer: IncomingTransfer) =>
        transfer.to.toLowerCase() === wallet &&
        transfer.block.number < lag.toBlock &&
        (transfer.block.number > lag.fromBlock ||
          (transfer.block.number === lag.fromBlock && Number(transfer.place) >= lag.fromLog))
      read.push({ lag, transfers: answer.transfers.filter(after), readTo: answer.readTo })
    }
  }
  return read
}
