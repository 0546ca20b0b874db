import type { Address } from 'viem'
import type { ChainClient } from '../chain/clients'
import type { DepositLag } from '../db/depositLags'
import { mapConcurrently } from '../mapConcurrently'
import type { RunBudget } from './runBudget'
import { type IncomingTransfer, readTokenTransfers } from './transferSources'

// The token transfers a lagging wallet has not had recorded yet (lib/db/depositLags.ts): read
// back for that wallet alone (eth_getLogs with topic 2 = the wallet), from exactly the block and
// log index where its last run stopped, so other wallets' transfers are neither read nor waited
// for. Native value cannot be read back by recipient, so it is never left behind (indexDeposits).

export interface LagTransfers {
  lag: DepositLag
  /** The wallet's token transfers from the lag's start, in order. */
  transfers: IncomingTransfer[]
  /** The last block read whole: `lag.toBlock - 1` when the whole range was. */
  readTo: bigint
}

/** Lags read at once (each a few eth_getLogs over its own wallet's transfers). */
const LAGS_IN_PARALLEL = 4

/**
 * Reads each lag's range, each stopping between two pieces once it has read `perLag` transfers
 * (the run's transfer budget counts them too); none starts once the run's time is nearly up.
 */
export async function readLaggingTransfers(
  client: ChainClient,
  lags: readonly DepositLag[],
  options: { maxRange: bigint; tokens: readonly Address[]; perLag: number; budget: RunBudget },
): Promise<LagTransfers[]> {
  const { maxRange, tokens, perLag, budget } = options
  const read = await mapConcurrently(lags, LAGS_IN_PARALLEL, async (lag) => {
    if (budget.timeUp()) return undefined
    const wallet = [lag.wallet]
    const { transfers, readTo } = await readTokenTransfers(client, {
      fromBlock: lag.fromBlock,
      toBlock: lag.toBlock - 1n,
      maxRange,
      tokens,
      recipients: wallet,
      knownWallets: () => Promise.resolve(wallet),
      more: (count) => count < perLag,
    })
    budget.examine(transfers.length)
    const after = (transfer: IncomingTransfer) =>
      transfer.block.number > lag.fromBlock || Number(transfer.place) >= lag.fromLog
    return { lag, transfers: transfers.filter(after), readTo }
  })
  return read.filter((entry) => entry !== undefined)
}
