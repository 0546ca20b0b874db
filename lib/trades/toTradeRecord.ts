import type { Trade } from '../db/tradeItem'
import { formatTimestamp } from '../formatTimestamp'

// A trade's amount is stored as formatUnits wrote it from bigint base units (lib/db/trade.ts), so
// that text is the exact twin of the interface's number.

/**
 * The interface's full Trade record. `gasUsed` and `blockNumber` are 0 until the receipt is
 * known (the interface types them as numbers); `status` says which.
 */
export function toTradeRecord(trade: Trade) {
  return {
    id: trade.id,
    hash: trade.hash,
    type: trade.type,
    network: trade.network,
    status: trade.status,
    amount: Number(trade.amount),
    amountExact: trade.amount,
    gasUsed: Number(trade.gasUsed ?? 0n),
    blockNumber: Number(trade.blockNumber ?? 0n),
    isNativeTransfer: trade.isNativeTransfer,
    from: trade.from,
    to: trade.to,
    createdAt: formatTimestamp(trade.createdAt),
    ...(trade.unpriced && { unpriced: true as const }),
  }
}

/** The trades list item. */
export function toTradeListItem(trade: Trade) {
  return {
    id: trade.id,
    type: trade.type,
    status: trade.status,
    amount: Number(trade.amount),
    amountExact: trade.amount,
    ...(trade.unpriced && { unpriced: true as const }),
  }
}
