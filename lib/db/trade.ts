import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { addCounterparty } from './counterparties'
import { timeOrderedUuid } from './ids'
import {
  pendingTradeIndexKey,
  tradeCounterKeys,
  tradeHashIndexKey,
  tradeKey,
  tradePositionKey,
  TRADE_POSITION_PREFIX,
} from './keys'
import type { TransactItem } from './session'
import { GSI1, GSI2 } from './tableSchema'
import { putPageEntry, updatePageEntry } from './tradePageEntry'
import {
  type Direction,
  type NewTrade,
  TRADE,
  type Trade,
  tradeItem,
  type TradeOutcome,
  toTrade,
} from './tradeItem'
import {
  positionOf,
  readTradeTail,
  tailAfter,
  takePositions,
  toTradeTail,
  type TradeTail,
} from './tradeTail'
import { isTransactionCanceled, transact } from './writeConflicts'

// The trade repository: a wallet's trades by id, by hash and by page, the pending ones of a
// network, and the two writes a trade the service sends goes through (recorded, then settled).
// Deposits are recorded by the indexer in batches: lib/db/depositRecords.ts.

export interface RecordTradeResult {
  id: string
  /** The wallet's tail once the trade took its position: where its next trade goes. */
  tail: TradeTail
}

function cancellationCodes(error: unknown): Array<string | undefined> {
  if (!isTransactionCanceled(error)) return []
  const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons
  return (reasons ?? []).map((reason) => reason.Code)
}

// A trade retries when another trade of its wallet took the position it read: each round one of
// the contenders wins, and a wallet has a handful of writers (the indexer, a swap, a submit).
const POSITION_ATTEMPTS = 16
const MAX_BACKOFF_MS = 200

/**
 * Records a trade the wallet sent, `pending` (and in the pending index), with its wallet's
 * counters and its counterparty (lib/db/counterparties.ts) in one transaction. The trade takes the
 * next position of its wallet from the tail counter: the transaction writes the page entry and
 * moves the counter's last position only if no other trade took it meanwhile (else it reads again
 * and retries), so positions are dense and follow creation time. `tail`: the wallet's tail as the
 * caller read it, tried first instead of reading it (a request that read it beside its other work
 * records in one call). `alongside`: writes of the same request that commit with the trade or not
 * at all (the Idempotency-Key's completion).
 */
export async function recordTrade(
  trade: NewTrade,
  options: { now?: Date; tail?: TradeTail; alongside?: readonly TransactItem[] } = {},
): Promise<RecordTradeResult> {
  // Deposits are the indexer's, once per transfer: recordDeposits.
  if (trade.type === 'deposit') throw new TypeError('deposits are recorded by recordDeposits')
  for (let attempt = 1; ; attempt += 1) {
    const tail = (attempt === 1 ? options.tail : undefined) ?? (await readTradeTail(trade.wallet))
    // After the read: a trade numbered after another was also created after it.
    const createdAt = options.now ?? new Date()
    const id = timeOrderedUuid(createdAt)
    const position = tail.lastPosition + 1
    const item = tradeItem(trade, id, createdAt, position)
    const counters = takePositions(trade.wallet, tail, 1)
    const items: TransactItem[] = [
      {
        Put: {
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      putPageEntry(item, position),
      ...counters,
      addCounterparty(trade.wallet, trade.to),
      ...(options.alongside ?? []),
    ]
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }))
      return { id, tail: tailAfter(tail, 1) }
    } catch (error) {
      const codes = cancellationCodes(error)
      // Another trade of the wallet took the position, or touched the counters at the same time
      // (TransactionConflict, which the SDK does not retry): nothing was written, so read again.
      const tailIndex = items.indexOf(counters[1] as TransactItem)
      const lostPosition =
        codes[tailIndex] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')
      if (!lostPosition || attempt === POSITION_ATTEMPTS) throw error
      const backoff = Math.min(MAX_BACKOFF_MS, 10 * 2 ** attempt) * Math.random()
      await new Promise((resolve) => setTimeout(resolve, backoff))
    }
  }
}

/** A trade of `wallet` by id: one GetItem; another wallet's trade is not found. */
export async function getTrade(wallet: string, tradeId: string): Promise<Trade | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: tradeKey(wallet, tradeId),
      ConsistentRead: true,
    }),
  )
  return Item?.type === TRADE ? toTrade(Item) : undefined
}

/**
 * A trade of `wallet` by transaction hash: one Query on GSI1. When one transaction is several
 * trades of the wallet (a transfer to itself, two deposit logs), the first recorded wins.
 */
export async function findTradeByHash(wallet: string, hash: string): Promise<Trade | undefined> {
  // With an empty id the sort key is the prefix shared by every trade of the wallet.
  const { gsi1pk, gsi1sk } = tradeHashIndexKey(hash, wallet, '')
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': gsi1sk },
      Limit: 1,
    }),
  )
  return Items[0] ? toTrade(Items[0]) : undefined
}

export interface ListTradesParameters {
  wallet: string
  limit: number
  offset: number
  direction: Direction
}

export interface ListTradesReturnType {
  /** Every trade of the wallet. */
  count: number
  trades: Trade[]
}

/**
 * A page of a wallet's trades by creation time, and their total, reading the page's entries and
 * one counter whatever the offset: the newest page is one Query from the tail counter; any other
 * page reads the tail counter (count, last position, holes) and then the page as a key range of
 * positions.
 */
export async function listTrades(parameters: ListTradesParameters): Promise<ListTradesReturnType> {
  const { wallet, limit, offset, direction } = parameters
  const { tail } = tradeCounterKeys(wallet)
  if (offset === 0 && direction === 'DESC') {
    const { Items = [] } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :tail',
        ExpressionAttributeValues: {
          ':pk': tail.pk,
          ':from': TRADE_POSITION_PREFIX,
          ':tail': tail.sk,
        },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit + 1,
      }),
    )
    const counter = Items[0]?.sk === tail.sk ? Items[0] : undefined
    const { count } = toTradeTail(wallet, counter)
    return { count, trades: Items.filter((item) => item !== counter).map(toTrade) }
  }
  const state = await readTradeTail(wallet)
  // The page as indexes 1..count from the oldest, then as positions (past the holes before them).
  const first = direction === 'ASC' ? offset + 1 : Math.max(1, state.count - offset - limit + 1)
  const last = direction === 'ASC' ? Math.min(state.count, offset + limit) : state.count - offset
  if (first > last) return { count: state.count, trades: [] }
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': tail.pk,
        ':from': tradePositionKey(wallet, positionOf(first, state.holes)).sk,
        ':to': tradePositionKey(wallet, positionOf(last, state.holes)).sk,
      },
      ScanIndexForward: direction === 'ASC',
      ConsistentRead: true,
    }),
  )
  return { count: state.count, trades: Items.map(toTrade) }
}

export interface PendingTradesPage {
  trades: Trade[]
  /** Where the next page starts; absent on the last page. */
  cursor?: Record<string, unknown>
}

/** Pending trades of a network, newest first, from the sparse GSI2. */
export async function listPendingTrades(
  network: NetworkName,
  options: { limit: number; cursor?: Record<string, unknown> },
): Promise<PendingTradesPage> {
  const page = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI2,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': pendingTradeIndexKey(network, '').gsi2pk },
      // Newest first: a backlog of never-mined transactions cannot delay fresh ones.
      ScanIndexForward: false,
      Limit: options.limit,
      ExclusiveStartKey: options.cursor,
    }),
  )
  return { trades: (page.Items ?? []).map(toTrade), cursor: page.LastEvaluatedKey }
}

/**
 * Moves a pending trade and its page entry to its outcome, and the trade out of the pending
 * index, only while it is pending: one transaction. Returns the updated trade, or undefined when
 * it had already left `pending`.
 */
export async function settleTrade(trade: Trade, outcome: TradeOutcome): Promise<Trade | undefined> {
  const settle = {
    UpdateExpression: 'SET #status = :status, gasUsed = :gasUsed, blockNumber = :blockNumber',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':status': outcome.status,
      ':gasUsed': Number(outcome.gasUsed),
      ':blockNumber': Number(outcome.blockNumber),
    },
  }
  const failed = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: tradeKey(trade.wallet, trade.id),
        // Leaving the sparse index: the reconciler no longer sees it.
        UpdateExpression: `${settle.UpdateExpression} REMOVE gsi2pk, gsi2sk`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: settle.ExpressionAttributeNames,
        ExpressionAttributeValues: { ...settle.ExpressionAttributeValues, ':pending': 'pending' },
      },
    },
    updatePageEntry(trade.wallet, trade.position, settle),
  ])
  if (failed) return undefined
  return {
    ...trade,
    status: outcome.status,
    gasUsed: outcome.gasUsed,
    blockNumber: outcome.blockNumber,
  }
}
