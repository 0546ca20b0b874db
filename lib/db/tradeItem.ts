import { getAddress } from 'viem'
import type { NetworkName } from '../networkNames'
import { pendingTradeIndexKey, tradeHashIndexKey, tradeKey } from './keys'

// The trade entity as the table holds it: the domain types and the mapping both ways.

export type TradeType = 'swap' | 'transfer' | 'approval' | 'deposit'
export type TradeStatus = 'pending' | 'successful' | 'failed'
export type Direction = 'ASC' | 'DESC'

/** What the receipt says: how a trade ended. */
export interface TradeOutcome {
  status: 'successful' | 'failed'
  gasUsed: bigint
  blockNumber: bigint
}

export interface NewTrade {
  hash: `0x${string}`
  type: TradeType
  network: NetworkName
  /** The checksummed owner: the wallet whose trade list shows it. */
  wallet: `0x${string}`
  from: `0x${string}`
  to: `0x${string}`
  /** Decimal string in whole units of the token, e.g. "1.5". */
  amount: string
  /** The token address, or NATIVE_COIN (DECISIONS §4). */
  token: `0x${string}`
  isNativeTransfer: boolean
  /** The log of an ERC-20 deposit; a native deposit has none. */
  logIndex?: number
  /** A deposit of a token without a path price (DECISIONS §10.4): listed, flagged. */
  unpriced?: boolean
  /** Already mined (deposits): recorded with this outcome instead of `pending`. */
  outcome?: TradeOutcome
}

export interface Trade extends Omit<NewTrade, 'outcome'> {
  id: string
  status: TradeStatus
  /** Known once the receipt is. */
  gasUsed?: bigint
  blockNumber?: bigint
  createdAt: Date
  /** 1, 2, 3... per wallet in the order recorded: where the trade's page entry is. */
  position: number
}

export const TRADE = 'Trade'

export function toTrade(item: Record<string, unknown>): Trade {
  return {
    id: String(item.id),
    hash: item.hash as `0x${string}`,
    type: item.tradeType as TradeType,
    network: item.network as NetworkName,
    status: item.status as TradeStatus,
    wallet: item.wallet as `0x${string}`,
    from: item.from as `0x${string}`,
    to: item.to as `0x${string}`,
    amount: String(item.amount),
    token: item.token as `0x${string}`,
    isNativeTransfer: item.isNativeTransfer === true,
    logIndex: item.logIndex === undefined ? undefined : Number(item.logIndex),
    ...(item.unpriced === true && { unpriced: true }),
    gasUsed: item.gasUsed === undefined ? undefined : BigInt(item.gasUsed as number),
    blockNumber: item.blockNumber === undefined ? undefined : BigInt(item.blockNumber as number),
    createdAt: new Date(String(item.createdAt)),
    position: Number(item.position),
  }
}

/**
 * The table item of a trade at `position`: its keys, the pending index while pending, and its
 * fields.
 */
export function tradeItem(trade: NewTrade, id: string, createdAt: Date, position: number) {
  return {
    ...tradeKey(trade.wallet, id),
    ...tradeHashIndexKey(trade.hash, trade.wallet, id),
    ...(!trade.outcome && pendingTradeIndexKey(trade.network, id)),
    type: TRADE,
    id,
    position,
    hash: trade.hash.toLowerCase(),
    tradeType: trade.type,
    network: trade.network,
    status: trade.outcome?.status ?? 'pending',
    wallet: getAddress(trade.wallet),
    from: getAddress(trade.from),
    to: getAddress(trade.to),
    amount: trade.amount,
    token: getAddress(trade.token),
    isNativeTransfer: trade.isNativeTransfer,
    logIndex: trade.logIndex,
    ...(trade.unpriced && { unpriced: true }),
    gasUsed: trade.outcome && Number(trade.outcome.gasUsed),
    blockNumber: trade.outcome && Number(trade.outcome.blockNumber),
    createdAt: createdAt.toISOString(),
  }
}
