import { tableName } from './client'
import { tradePositionKey } from './keys'
import type { TransactItem } from './session'

// A trade's page entry, TRADE#}<position>: a copy of the trade under its position, so a page at
// any offset is one key range. The copy is made here only, and every write that changes a trade
// changes its entry in the same transaction through these: recording (recordTrade,
// recordDeposits), settling (settleTrade), a reorganisation's removal (removeJournalledDeposit)
// and the numbering of trades recorded before positions (numberWalletTrades).

const TRADE_POSITION = 'TradePosition'

/** The entry's item: the trade's fields (not its index keys, so no GSI sees it twice). */
export function pageEntryItem(item: Record<string, unknown>, position: number) {
  const fields = Object.fromEntries(
    Object.entries(item).filter(([name]) => !/^(pk|sk|gsi\d(pk|sk))$/.test(name)),
  )
  return {
    ...fields,
    ...tradePositionKey(String(item.wallet), position),
    type: TRADE_POSITION,
    position,
  }
}

/** Writes a new trade's entry, only where no entry is (its position was free). */
export function putPageEntry(item: Record<string, unknown>, position: number): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: pageEntryItem(item, position),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/** Applies the trade's own update (`SET` with its names and values) to its entry. */
export function updatePageEntry(
  wallet: string,
  position: number,
  update: {
    UpdateExpression: string
    ExpressionAttributeNames: Record<string, string>
    ExpressionAttributeValues: Record<string, unknown>
  },
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: tradePositionKey(wallet, position),
      ...update,
      ConditionExpression: 'attribute_exists(pk)',
    },
  }
}

export function deletePageEntry(wallet: string, position: number): TransactItem {
  return { Delete: { TableName: tableName(), Key: tradePositionKey(wallet, position) } }
}
