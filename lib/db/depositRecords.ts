import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { batchGetItems, itemId } from './batchGet'
import { db, tableName } from './client'
import { putJournalEntry } from './depositJournal'
import { timeOrderedUuid } from './ids'
import { depositMarkerKey, type DepositPlace } from './keys'
import type { TransactItem } from './session'
import { putPageEntry } from './tradePageEntry'
import { tradeItem } from './tradeItem'
import { readTradeTail, tailAfter, takePositions, type TradeTail } from './tradeTail'
import { isTransactionCanceled } from './writeConflicts'

// The indexer's deposits, recorded once per transfer (DECISIONS §5: once per hash and log index):
// each with a marker DEPOSIT#<network>#<hash> / LOG#<index>, NATIVE or TRACE#<path>, written
// only where none is, and a journal entry under its block (lib/db/depositJournal.ts). A wallet's
// deposits go in batches, many to a transaction, taking consecutive positions.

/** A transfer into a wallet, mined and successful, to record as its deposit. */
export interface NewDeposit {
  hash: `0x${string}`
  network: NetworkName
  /** The wallet it reached: the trade's owner and `to`. */
  wallet: `0x${string}`
  from: `0x${string}`
  /** Decimal string in whole units of the token. */
  amount: string
  /** A catalog token, or NATIVE_COIN. */
  token: `0x${string}`
  /** Where in its transaction (a log's index, `native`, an internal call's `trace:<path>`). */
  place: DepositPlace
  blockNumber: bigint
  blockHash: `0x${string}`
  gasUsed: bigint
  /** The token had no path price when it was recorded (DECISIONS §10.4): listed, flagged. */
  unpriced?: boolean
}

/** The id of a deposit's marker, the same for every scan of the same transfer. */
export function depositId(deposit: Pick<NewDeposit, 'network' | 'hash' | 'place'>): string {
  return itemId(depositMarkerKey(deposit.network, deposit.hash, deposit.place))
}

/**
 * Which of `deposits` are recorded already, by depositId: their markers, one BatchGetItem per 100
 * (a range scanned again costs these reads, not failed writes).
 */
export async function findRecordedDeposits(
  deposits: ReadonlyArray<Pick<NewDeposit, 'network' | 'hash' | 'place'>>,
): Promise<Set<string>> {
  const keys = new Map(
    deposits.map((deposit) => {
      const key = depositMarkerKey(deposit.network, deposit.hash, deposit.place)
      return [itemId(key), key] as const
    }),
  )
  const found = await batchGetItems([...keys.values()], {
    consistentRead: true,
    projection: 'pk, sk',
  })
  return new Set(found.keys())
}

// Four items a deposit (trade, page entry, journal, marker) and the two counters: 98 of the 100
// a DynamoDB transaction may hold.
const DEPOSITS_PER_TRANSACTION = 24
const ATTEMPTS = 16
const MAX_BACKOFF_MS = 200

function cancellationCodes(error: unknown): Array<string | undefined> {
  if (!isTransactionCanceled(error)) return []
  const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons
  return (reasons ?? []).map((reason) => reason.Code)
}

/** A deposit's four items at `position`. */
function depositItems(deposit: NewDeposit, id: string, createdAt: Date, position: number) {
  const native = typeof deposit.place !== 'number'
  const item = tradeItem(
    {
      hash: deposit.hash,
      type: 'deposit',
      network: deposit.network,
      wallet: deposit.wallet,
      from: deposit.from,
      to: deposit.wallet,
      amount: deposit.amount,
      token: deposit.token,
      isNativeTransfer: native,
      logIndex: native ? undefined : Number(deposit.place),
      unpriced: deposit.unpriced,
      outcome: {
        status: 'successful',
        gasUsed: deposit.gasUsed,
        blockNumber: deposit.blockNumber,
      },
    },
    id,
    createdAt,
    position,
  )
  const marker = depositMarkerKey(deposit.network, deposit.hash, deposit.place)
  const put = (Item: Record<string, unknown>, onlyNew: boolean): TransactItem => ({
    Put: {
      TableName: tableName(),
      Item,
      ...(onlyNew && { ConditionExpression: 'attribute_not_exists(pk)' }),
    },
  })
  return [
    put(item, true),
    putPageEntry(item, position),
    putJournalEntry(deposit.network, deposit, { wallet: item.wallet, tradeId: id, marker }),
    // Last of the four, so a refused marker is found by its place (see recordDeposits).
    put({ ...marker, type: 'DepositMarker', tradeId: id, wallet: item.wallet }, true),
  ]
}

export interface RecordDepositsReturnType {
  /** Deposits written by this call. */
  recorded: number
  /** Deposits handled from the start of the list (written, or found written by another run). */
  handled: number
  /** The wallet's tail after them, where its next trade goes; undefined if never read. */
  tail?: TradeTail
}

/**
 * Records `deposits` of one wallet, in order, DEPOSITS_PER_TRANSACTION to a transaction with the
 * wallet's counters: each takes the next position, and none is recorded twice (its marker is
 * written only where none is; a batch refused for a marker another run wrote is asked again
 * without the deposits already there). `tail`: the wallet's tail if the caller knows it. `more`
 * is asked before each transaction: false stops there (the rest is not handled).
 */
export async function recordDeposits(
  wallet: string,
  deposits: readonly NewDeposit[],
  options: { tail?: TradeTail; now?: Date; more?: () => boolean } = {},
): Promise<RecordDepositsReturnType> {
  let tail = options.tail
  let recorded = 0
  let handled = 0
  for (let start = 0; start < deposits.length; start += DEPOSITS_PER_TRANSACTION) {
    if (options.more && !options.more()) break
    let pending = deposits.slice(start, start + DEPOSITS_PER_TRANSACTION)
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      const read = tail ?? (await readTradeTail(wallet))
      const createdAt = options.now ?? new Date()
      // Sorted, so ids made in the same millisecond follow the positions too.
      const ids = pending.map(() => timeOrderedUuid(createdAt)).sort()
      const items = pending.flatMap((deposit, index) =>
        depositItems(deposit, ids[index] ?? '', createdAt, read.lastPosition + 1 + index),
      )
      items.push(...takePositions(wallet, read, pending.length))
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }))
        recorded += pending.length
        tail = tailAfter(read, pending.length)
        pending = []
      } catch (error) {
        const codes = cancellationCodes(error)
        const markerRefused = pending.some(
          (_, index) => codes[index * 4 + 3] === 'ConditionalCheckFailed',
        )
        const lostPosition =
          codes[items.length - 1] === 'ConditionalCheckFailed' ||
          codes.includes('TransactionConflict')
        if ((!markerRefused && !lostPosition) || attempt === ATTEMPTS) throw error
        if (markerRefused) {
          // Recorded meanwhile by another run: done; the others go again.
          const found = await findRecordedDeposits(pending)
          pending = pending.filter((deposit) => !found.has(depositId(deposit)))
        }
        if (lostPosition) {
          tail = undefined
          const backoff = Math.min(MAX_BACKOFF_MS, 10 * 2 ** attempt) * Math.random()
          await new Promise((resolve) => setTimeout(resolve, backoff))
        } else {
          tail = read
        }
      }
    }
    handled = Math.min(deposits.length, start + DEPOSITS_PER_TRANSACTION)
  }
  return { recorded, handled, tail }
}
