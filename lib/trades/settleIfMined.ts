import type { TransactionReceipt } from 'viem'
import { publicClient } from '../chain/clients'
import { findReceipt } from '../chain/findReceipt'
import { settleTrade, type Trade, type TradeOutcome } from '../db/trade'

export function outcomeOf(receipt: TransactionReceipt): TradeOutcome {
  return {
    status: receipt.status === 'success' ? 'successful' : 'failed',
    gasUsed: receipt.gasUsed,
    blockNumber: receipt.blockNumber,
  }
}

/**
 * Asks the node for a pending trade's receipt (one RPC call) and, once it is mined, moves the
 * trade to `successful` or `failed`. Without a receipt the trade stays pending: a transaction is
 * never taken as successful before it is mined.
 */
export async function settleIfMined(trade: Trade): Promise<Trade> {
  if (trade.status !== 'pending') return trade
  const receipt = await findReceipt(publicClient(trade.network), { hash: trade.hash })
  if (!receipt) return trade
  const outcome = outcomeOf(receipt)
  // Undefined: another run settled it from the same receipt a moment ago.
  return (await settleTrade(trade, outcome)) ?? { ...trade, ...outcome }
}
