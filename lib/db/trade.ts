import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { getAddress } from 'viem'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { timeOrderedUuid } from './ids'
import {
  depositMarkerKey,
  pendingTradeIndexKey,
  tradeCounterKeys,
  tradeHashIndexKey,
  tradeKey,
  tradePositionKey,
  TRADE_POSITION_PREFIX,
  depositJournalKey,
  type DepositPlace,
} from './keys'
import type { TransactItem } from './session'
import { GSI1, GSI2 } from './tableSchema'
import { queryAll } from './queryAll'
import { isTransactionCanceled, transact } from './writeConflicts'

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
  /**
   * 1, 2, 3... per wallet in the order recorded: where the trade's page entry is. Absent on a
   * trade recorded before positions existed and not yet numbered (backfillTradePositions).
   */
  position?: number
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
    position: item.position === undefined ? undefined : Number(item.position),
  }
}

function cancellationCodes(error: unknown): Array<string | undefined> {
  if (!isTransactionCanceled(error)) return []
  const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons
  return (reasons ?? []).map((reason) => reason.Code)
}

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

/**
 * The table item of a trade: its keys, the pending index while pending, and its fields, with its
 * position when numbered.
 */
export function tradeItem(trade: NewTrade, id: string, createdAt: Date, position?: number) {
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
    gasUsed: trade.outcome && Number(trade.outcome.gasUsed),
    blockNumber: trade.outcome && Number(trade.outcome.blockNumber),
    createdAt: createdAt.toISOString(),
  }
}

const TRADE_POSITION = 'TradePosition'

/**
 * A trade's page entry: its fields (not its index keys, so neither GSI sees it twice) under its
 * position. Kept equal to the trade by every write that changes one (recordTrade, settleTrade,
 * removeJournalledDeposit, backfillTradePositions).
 */
export function tradePositionItem(item: Record<string, unknown>, position: number) {
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

/** Where a wallet's next trade goes, from its tail counter. */
export interface TradeTail {
  /** Live trades. */
  count: number
  /**
   * The last position given; 0 before the first trade. Undefined on a wallet whose trades were
   * recorded before positions and are not numbered yet: its pages fall back to reading from an
   * end (listTradesFromEnd).
   */
  lastPosition?: number
  /** Positions whose trade was removed (an orphaned deposit), ascending. */
  holes: number[]
}

function toTradeTail(item: Record<string, unknown> | undefined): TradeTail {
  const count = Number(item?.tradeCount ?? 0)
  const lastPosition =
    item?.lastPosition !== undefined ? Number(item.lastPosition) : count > 0 ? undefined : 0
  const holes = [...((item?.holes as Set<number> | undefined) ?? [])].map(Number)
  return { count, lastPosition, holes: holes.sort((a, b) => a - b) }
}

/** The wallet's tail counter, strongly consistent: one GetItem. */
export async function readTradeTail(wallet: string): Promise<TradeTail> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: tradeCounterKeys(wallet).tail,
      ConsistentRead: true,
    }),
  )
  return toTradeTail(Item)
}

// A numbered trade retries when another trade of its wallet took the position it read: each
// round one of the contenders wins, and a wallet has a handful of writers (the indexer, which
// records a wallet's deposits one at a time, a swap, a submit).
const POSITION_ATTEMPTS = 16
const MAX_BACKOFF_MS = 200

/**
 * Records a trade with its wallet's counters in one transaction: `pending` (and in the pending
 * index) unless `outcome` is given. The trade takes the next position of its wallet, read from
 * the tail counter just before: the transaction writes the page entry and moves the counter's
 * last position only if no other trade took it meanwhile (else it reads again and retries), so
 * positions are dense and follow creation time. A deposit is recorded once per (network, hash,
 * log index): recording it again writes nothing and returns the first id with `created: false`.
 * `alongside`: writes of the same request that commit with the trade or not at all (the
 * Idempotency-Key's completion), so the request's last write is one call: the first attempt starts
 * from a tail this container knows (primeTradeTail) instead of reading it.
 */
export async function recordTrade(
  trade: NewTrade,
  options: { now?: Date; alongside?: readonly TransactItem[] } = {},
): Promise<RecordTradeResult> {
  const marker = depositMarkerOf(trade)
  const counters = tradeCounterKeys(trade.wallet)
  const wallet = trade.wallet.toLowerCase()
  for (let attempt = 1; ; attempt += 1) {
    const known = attempt === 1 ? knownTails.get(wallet) : undefined
    const tail = known ?? (await readTradeTail(trade.wallet))
    // After the read: a trade numbered after another was also created after it.
    const createdAt = options.now ?? new Date()
    const id = timeOrderedUuid(createdAt)
    const position = tail.lastPosition === undefined ? undefined : tail.lastPosition + 1
    const item = tradeItem(trade, id, createdAt, position)
    const items: TransactItem[] = [
      {
        Put: {
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...(position === undefined
        ? []
        : [
            {
              Put: {
                TableName: tableName(),
                Item: tradePositionItem(item, position),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]),
      {
        Update: {
          TableName: tableName(),
          Key: counters.head,
          UpdateExpression: 'SET #type = :type ADD tradeCount :one',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'TradeCounter', ':one': 1 },
        },
      },
      { Update: { TableName: tableName(), Key: counters.tail, ...tailUpdate(tail, position) } },
      ...(options.alongside ?? []),
    ]
    const tailIndex = items.findIndex((entry) => entry.Update?.Key === counters.tail)
    if (marker && trade.outcome?.blockHash) {
      items.push({
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
    // Last, so its place tells a repeat (see the catch below).
    if (marker) {
      items.push({
        Put: {
          TableName: tableName(),
          Item: { ...marker, type: 'DepositMarker', tradeId: id, wallet: item.wallet },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      })
    }
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }))
      primeTradeTail(wallet, { ...tail, count: tail.count + 1, lastPosition: position })
      return { id, created: true }
    } catch (error) {
      const codes = cancellationCodes(error)
      if (marker && codes[items.length - 1] === 'ConditionalCheckFailed') {
        const { Item } = await db().send(
          new GetCommand({ TableName: tableName(), Key: marker, ConsistentRead: true }),
        )
        return { id: String(Item?.tradeId), created: false }
      }
      // Another trade of the wallet took the position, or touched the counters at the same time
      // (TransactionConflict, which the SDK does not retry): nothing was written, so read again.
      const lostPosition =
        codes[tailIndex] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')
      if (!lostPosition || attempt === POSITION_ATTEMPTS) throw error
      const backoff = Math.min(MAX_BACKOFF_MS, 10 * 2 ** attempt) * Math.random()
      await new Promise((resolve) => setTimeout(resolve, backoff))
    }
  }
}

// Tails this container read or moved lately: a request that reads its wallet's tail beside its
// other work (sendOnce), or records two trades (an approval, then its swap), records each in one
// call. Only a first guess: the transaction checks it, so an entry another writer made stale costs
// one more read, never a wrong position.
const knownTails = new Map<string, TradeTail>()
const KNOWN_TAILS = 100

/** Notes `wallet`'s tail as just read (readTradeTail), for its next recordTrade in this container. */
export function primeTradeTail(wallet: string, tail: TradeTail): void {
  const key = wallet.toLowerCase()
  const known = knownTails.get(key)
  // Positions only grow: keep the later of two reads.
  if (known && (known.lastPosition ?? 0) > (tail.lastPosition ?? 0)) return
  knownTails.delete(key)
  knownTails.set(key, tail)
  // A Map iterates oldest first: keep the newest few.
  for (const stale of knownTails.keys()) {
    if (knownTails.size <= KNOWN_TAILS) break
    knownTails.delete(stale)
  }
}

/**
 * The tail counter's update for a trade at `position`: counted, and the last position moved
 * only from the value read. A wallet not numbered yet stays so until its backfill (which sets the
 * last position once every trade has one), so a trade recorded meanwhile is numbered by it.
 */
function tailUpdate(tail: TradeTail, position: number | undefined) {
  const type = { ExpressionAttributeNames: { '#type': 'type' } }
  if (position === undefined) {
    return {
      ...type,
      UpdateExpression: 'SET #type = :type ADD tradeCount :one',
      ConditionExpression: 'attribute_not_exists(lastPosition)',
      ExpressionAttributeValues: { ':type': 'TradeCounter', ':one': 1 },
    }
  }
  return {
    ...type,
    UpdateExpression: 'SET #type = :type, lastPosition = :position ADD tradeCount :one',
    ConditionExpression:
      position === 1
        ? 'attribute_not_exists(lastPosition) AND (attribute_not_exists(tradeCount) OR tradeCount = :zero)'
        : 'lastPosition = :last',
    ExpressionAttributeValues: {
      ':type': 'TradeCounter',
      ':one': 1,
      ':position': position,
      ...(position === 1 ? { ':zero': 0 } : { ':last': tail.lastPosition }),
    },
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
 * positions. A wallet whose trades are not numbered yet is read from an end (listTradesFromEnd).
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
    const state = toTradeTail(counter)
    if (state.lastPosition === undefined) return listTradesFromEnd(parameters, state.count)
    return { count: state.count, trades: Items.filter((item) => item !== counter).map(toTrade) }
  }
  const state = await readTradeTail(wallet)
  if (state.lastPosition === undefined) return listTradesFromEnd(parameters, state.count)
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

/** The position of the `index`-th live trade (1-based from the oldest), past the holes. */
export function positionOf(index: number, holes: readonly number[]): number {
  let position = index
  for (const hole of holes) {
    if (hole <= position) position += 1
    else break
  }
  return position
}

/**
 * The fallback for a wallet recorded before positions, until backfillTradePositions numbers it:
 * one Query from an end over offset + limit trades (cost grows with the offset); `count` is the
 * tail counter's.
 */
async function listTradesFromEnd(
  { wallet, limit, offset, direction }: ListTradesParameters,
  count: number,
): Promise<ListTradesReturnType> {
  const { head } = tradeCounterKeys(wallet)
  // The head counter and the trades, not the page entries a backfill may have begun to write
  // ('|' sorts after every id character and before '}').
  const items = await queryAll(
    {
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :head AND :lastId',
      ExpressionAttributeValues: { ':pk': head.pk, ':head': head.sk, ':lastId': 'TRADE#|' },
      ScanIndexForward: direction === 'ASC',
      ConsistentRead: true,
    },
    offset + limit + 1,
  )
  const trades = items.filter((item) => item.type === TRADE)
  return { count, trades: trades.slice(offset, offset + limit).map(toTrade) }
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
  const values = {
    ':status': outcome.status,
    ':gasUsed': Number(outcome.gasUsed),
    ':blockNumber': Number(outcome.blockNumber),
  }
  const settle = 'SET #status = :status, gasUsed = :gasUsed, blockNumber = :blockNumber'
  const names = { '#status': 'status' }
  const numbered = trade.position !== undefined
  const failed = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: tradeKey(trade.wallet, trade.id),
        // Leaving the sparse index: the reconciler no longer sees it.
        UpdateExpression: `${settle} REMOVE gsi2pk, gsi2sk`,
        // Not numbered when read: still not, else its page entry would keep `pending`.
        ConditionExpression: numbered
          ? '#status = :pending'
          : '#status = :pending AND attribute_not_exists(#position)',
        ExpressionAttributeNames: { ...names, ...(!numbered && { '#position': 'position' }) },
        ExpressionAttributeValues: { ...values, ':pending': 'pending' },
      },
    },
    ...(trade.position === undefined
      ? []
      : [
          {
            Update: {
              TableName: tableName(),
              Key: tradePositionKey(trade.wallet, trade.position),
              UpdateExpression: settle,
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
        ]),
  ])
  if (!failed) {
    return {
      ...trade,
      status: outcome.status,
      gasUsed: outcome.gasUsed,
      blockNumber: outcome.blockNumber,
    }
  }
  // Numbered by the backfill since it was read: settle it again as it is now.
  const current = numbered ? undefined : await getTrade(trade.wallet, trade.id)
  if (current?.status === 'pending' && current.position !== undefined) {
    return settleTrade(current, outcome)
  }
  return undefined
}
