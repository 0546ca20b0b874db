import type { TransactionReceipt } from 'viem'
import { publicClient } from '../chain/clients'
import { findReceipt } from '../chain/findReceipt'
import { settleTrade } from '../db/trade'
import type { Trade, TradeOutcome } from '../db/tradeItem'

export function outcomeOf(receipt: TransactionReceipt): TradeOutcome {
  return {
    status: receipt.status === 'success' ? 'successful' : 'failed',
    gasUsed: receipt.gasUsed,
    blockNumber: receipt.blockNumber,
  }
}

/**
 * Asks the node for a pending trade's receipt (one RPC call) and, once it is mined with
 * `confirmations` blocks on top of its own (`head` is the chain's height), moves the trade to
 * `successful` or `failed`. Without a receipt, or before that depth, the trade stays pending: a
 * transaction is never taken as settled while a reorganisation may still drop it.
 */
export async function settleIfMined(
  trade: Trade,
  { head, confirmations = 0 }: { head?: bigint; confirmations?: number } = {},
): Promise<Trade> {
  if (trade.status !== 'pending') return trade
  const receipt = await findReceipt(publicClient(trade.network), { hash: trade.hash })
  if (!receipt) return trade
  if (head !== undefined && head - receipt.blockNumber < BigInt(confirmations)) return trade
  const outcome = outcomeOf(receipt)
  // Undefined: another run settled it from the same receipt a moment ago.
  return (await settleTrade(trade, outcome)) ?? { ...trade, ...outcome }
}
