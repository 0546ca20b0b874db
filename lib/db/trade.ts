import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb'
import { getAddress } from 'viem'
import type { NetworkName } from '../config'
import { db, tableName } from './client'
import { timeOrderedUuid } from './ids'
import {
  type TableKey,
  depositMarkerKey,
  pendingTradeIndexKey,
  tradeCounterKeys,
  tradeHashIndexKey,
  tradeKey,
  depositJournalKey,
  type DepositPlace,
} from './keys'
import type { TransactItem } from './session'
import { GSI1, GSI2 } from './tableSchema'
import { queryAll } from './queryAll'
import { isConditionFailed, isTransactionCanceled } from './writeConflicts'

export type TradeType = 'swap' | 'transfer' | 'approval' | 'deposit'
export type TradeStatus = 'pending' | 'successful' | 'failed'
export type Direction = 'ASC' | 'DESC'

/** What the receipt says: how a trade ended. */
export interface TradeOutcome {
  status: 'successful' | 'failed'
  gasUsed: bigint
  blockNumber: bigint
  /** The block's hash: a deposit is journalled under it, so a reorg can find it again. */
  blockHash?: `0x${string}`
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
  /** An internal call's trace address (`0.1`): native coin a contract sent to the wallet. */
  traceAddress?: string
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
}

export interface RecordTradeResult {
  id: string
  /** False when the deposit was recorded before; `id` is then the existing trade's. */
  created: boolean
}

const TRADE = 'Trade'

function toTrade(item: Record<string, unknown>): Trade {
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
    gasUsed: item.gasUsed === undefined ? undefined : BigInt(item.gasUsed as number),
    blockNumber: item.blockNumber === undefined ? undefined : BigInt(item.blockNumber as number),
    createdAt: new Date(String(item.createdAt)),
  }
}

function cancellationCodes(error: unknown): Array<string | undefined> {
  if (!isTransactionCanceled(error)) return []
  const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons
  return (reasons ?? []).map((reason) => reason.Code)
}

// Two trades of one wallet recorded at once touch the same counters; DynamoDB cancels one with
// TransactionConflict, which the SDK does not retry. Nothing was written, so retrying is safe.
const CONFLICT_ATTEMPTS = 4

function placeOf(trade: NewTrade): DepositPlace {
  if (trade.traceAddress !== undefined) return `trace:${trade.traceAddress}`
  return trade.isNativeTransfer ? 'native' : (trade.logIndex ?? 0)
}

function depositMarkerOf(trade: NewTrade) {
  if (trade.type !== 'deposit') return undefined
  if (trade.isNativeTransfer) return depositMarkerKey(trade.network, trade.hash, placeOf(trade))
  if (trade.logIndex === undefined) throw new TypeError('an ERC-20 deposit needs its logIndex')
  return depositMarkerKey(trade.network, trade.hash, trade.logIndex)
}

/** The table item of a trade: its keys, the pending index while pending, and its fields. */
export function tradeItem(trade: NewTrade, id: string, createdAt: Date) {
  return {
    ...tradeKey(trade.wallet, id),
    ...tradeHashIndexKey(trade.hash, trade.wallet, id),
    ...(!trade.outcome && pendingTradeIndexKey(trade.network, id)),
    type: TRADE,
    id,
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
    gasUsed: trade.outcome && Number(trade.outcome.gasUsed),
    blockNumber: trade.outcome && Number(trade.outcome.blockNumber),
    createdAt: createdAt.toISOString(),
  }
}

/**
 * Records a trade with its wallet's counters in one transaction: `pending` (and in the pending
 * index) unless `outcome` is given. A deposit is recorded once per (network, hash, log index):
 * recording it again writes nothing and returns the first id with `created: false`. `alongside`:
 * writes of the same request that commit with the trade or not at all (the Idempotency-Key's
 * completion), so the request's last step is one call.
 */
export async function recordTrade(
  trade: NewTrade,
  options: { now?: Date; alongside?: readonly TransactItem[] } = {},
): Promise<RecordTradeResult> {
  const createdAt = options.now ?? new Date()
  const id = timeOrderedUuid(createdAt)
  const marker = depositMarkerOf(trade)
  const counters = tradeCounterKeys(trade.wallet)
  const item = tradeItem(trade, id, createdAt)
  const bump = (Key: TableKey): TransactItem => ({
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET #type = :type ADD tradeCount :one',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'TradeCounter', ':one': 1 },
    },
  })
  const items: TransactItem[] = [
    {
      Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
    },
    bump(counters.head),
    bump(counters.tail),
    ...(options.alongside ?? []),
  ]
  if (marker) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: { ...marker, type: 'DepositMarker', tradeId: id, wallet: item.wallet },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })
  }
  // Before the marker, whose place at the end tells a repeat (see the catch below).
  if (marker && trade.outcome?.blockHash) {
    items.splice(items.length - 1, 0, {
      Put: {
        TableName: tableName(),
        Item: {
          ...depositJournalKey(
            trade.network,
            trade.outcome.blockNumber,
            trade.hash,
            placeOf(trade),
          ),
          type: 'DepositJournal',
          blockHash: trade.outcome.blockHash,
          wallet: item.wallet,
          tradeId: id,
          markerPk: marker.pk,
          markerSk: marker.sk,
        },
      },
    })
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }))
      return { id, created: true }
    } catch (error) {
      const codes = cancellationCodes(error)
      if (marker && codes[items.length - 1] === 'ConditionalCheckFailed') {
        const { Item } = await db().send(
          new GetCommand({ TableName: tableName(), Key: marker, ConsistentRead: true }),
        )
        return { id: String(Item?.tradeId), created: false }
      }
      if (!codes.includes('TransactionConflict') || attempt === CONFLICT_ATTEMPTS) throw error
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()))
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
 * A page of a wallet's trades by creation time, and their total. The Query starts at the counter
 * of its end and reads offset + limit trades after it: one call unless the page passes 1 MB.
 */
export async function listTrades({
  wallet,
  limit,
  offset,
  direction,
}: ListTradesParameters): Promise<ListTradesReturnType> {
  const { head, tail } = tradeCounterKeys(wallet)
  const wanted = offset + limit + 1
  const items = await queryAll(
    {
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :head AND :tail',
      ExpressionAttributeValues: { ':pk': head.pk, ':head': head.sk, ':tail': tail.sk },
      ScanIndexForward: direction === 'ASC',
      ConsistentRead: true,
    },
    wanted,
  )
  const counter = items.find((item) => item.type === 'TradeCounter')
  const trades = items.filter((item) => item.type === TRADE)
  return {
    count: Number(counter?.tradeCount ?? 0),
    trades: trades.slice(offset, offset + limit).map(toTrade),
  }
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
 * Moves a pending trade to its outcome and out of the pending index, only while it is pending.
 * Returns the updated trade, or undefined when it had already left `pending`.
 */
export async function settleTrade(
  trade: Pick<Trade, 'wallet' | 'id'>,
  outcome: TradeOutcome,
): Promise<Trade | undefined> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tradeKey(trade.wallet, trade.id),
        // Leaving the sparse index: the reconciler no longer sees it.
        UpdateExpression:
          'SET #status = :status, gasUsed = :gasUsed, blockNumber = :blockNumber ' +
          'REMOVE gsi2pk, gsi2sk',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':gasUsed': Number(outcome.gasUsed),
          ':blockNumber': Number(outcome.blockNumber),
          ':pending': 'pending',
        },
        ReturnValues: 'ALL_NEW',
      }),
    )
    return Attributes && toTrade(Attributes)
  } catch (error) {
    if (isConditionFailed(error)) return undefined
    throw error
  }
}
