import { getBlockNumber } from 'viem/actions'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig, loadServedNetworks } from '../config'
import type { NetworkName } from '../networkNames'
import { listPendingTrades } from '../db/trade'
import { settleIfMined } from './settleIfMined'

export interface ReconcileTradesParameters {
  networks?: readonly NetworkName[]
  /** Pending trades checked per network and run; the newest first. */
  maxPerNetwork?: number
}

export interface NetworkReconciliation {
  network: NetworkName
  checked: number
  settled: number
}

const PAGE_SIZE = 100

async function reconcileNetwork(
  network: NetworkName,
  maxPerNetwork: number,
): Promise<NetworkReconciliation> {
  let checked = 0
  let settled = 0
  let cursor: Record<string, unknown> | undefined
  // DECISIONS §7.2: with a confirmation depth, a receipt counts once that many blocks followed.
  const { confirmations } = loadChainConfig(network)
  const head =
    confirmations > 0
      ? await onChain(network, () => getBlockNumber(publicClient(network), { cacheTime: 0 }))
      : undefined
  do {
    const page = await listPendingTrades(network, {
      limit: Math.min(PAGE_SIZE, maxPerNetwork - checked),
      cursor,
    })
    // One receipt request per trade; the batched transport sends a page in one HTTP request. A
    // node that fails becomes ChainUnavailable: viem's own error quotes the RPC URL, which can
    // carry a provider's API key, and the Lambda runtime logs a scheduled run's error.
    const trades = await onChain(network, () =>
      Promise.all(page.trades.map((trade) => settleIfMined(trade, { head, confirmations }))),
    )
    checked += trades.length
    settled += trades.filter((trade) => trade.status !== 'pending').length
    cursor = page.cursor
  } while (cursor && checked < maxPerNetwork)
  return { network, checked, settled }
}

/**
 * Moves pending trades whose receipts are known to `successful` or `failed`, network by network;
 * a failing node stops only its own network, and the run then fails with its error.
 */
export async function reconcileTrades({
  networks = loadServedNetworks(),
  maxPerNetwork = 1000,
}: ReconcileTradesParameters = {}): Promise<NetworkReconciliation[]> {
  const results = await Promise.allSettled(
    networks.map((network) => reconcileNetwork(network, maxPerNetwork)),
  )
  const failure = results.find((result) => result.status === 'rejected')
  if (failure) throw failure.reason
  return results.map((result) => (result as PromiseFulfilledResult<NetworkReconciliation>).value)
}
