import { BaseError } from 'viem'
import { findTradeByHash, getTrade } from '../db/trade'
import type { Trade } from '../db/tradeItem'
import { NotFound } from '../errors'
import { settleIfMined } from './settleIfMined'

export type TradeSelector = { id: string } | { hash: string }

/**
 * One trade of `wallet`, by id or hash: one DynamoDB read; another wallet's trade is 404. A
 * pending trade is checked against the node (one RPC call) and settled when its receipt is there;
 * if the node does not answer, the trade is returned pending and the reconciler moves it later.
 */
export async function lookupTrade(wallet: string, selector: TradeSelector): Promise<Trade> {
  const trade =
    'id' in selector
      ? await getTrade(wallet, selector.id)
      : await findTradeByHash(wallet, selector.hash)
  if (!trade)
    throw new NotFound(`no trade of this wallet has that ${'id' in selector ? 'id' : 'hash'}`)
  if (trade.status !== 'pending') return trade
  try {
    return await settleIfMined(trade)
  } catch (error) {
    if (error instanceof BaseError) return trade
    throw error
  }
}
