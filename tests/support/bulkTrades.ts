import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import { randomBytes } from 'node:crypto'
import { type Address, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { mapConcurrently } from '../../lib/mapConcurrently'
import { db, tableName } from '../../lib/db/client'
import { timeOrderedUuid } from '../../lib/db/ids'
import { tradeCounterKeys } from '../../lib/db/keys'
import { NATIVE_COIN } from '../../lib/constants'
import { DatabaseUnavailable } from '../../lib/errors'
import { tradeItem } from '../../lib/db/tradeItem'
import { pageEntryItem } from '../../lib/db/tradePageEntry'

// A wallet with thousands of trades, written fast: the items recordTrade writes (tradeItem and
// its page entry, the same keys, positions 1..count) in BatchWrites of 25, then both counters set
// to the total and the tail to the last position. No per-trade transaction: 10,000 of them would
// take minutes, and only the shape of the items matters to the reads. `numbered: false` writes a
// wallet as a release before positions did (no position, no page entries, no last position), for
// the migration's test (npm run trades:number).

const BATCH = 25
const CONCURRENCY = 4

// Puts are safe to send again: a batch the loaded machine's DynamoDB Local timed out is resent.
const TIMED_OUT_ATTEMPTS = 5

async function writeBatch(items: Record<string, unknown>[]): Promise<void> {
  let requests = items.map((Item) => ({ PutRequest: { Item } }))
  for (let timedOut = 0; requests.length > 0;) {
    try {
      const { UnprocessedItems } = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }),
      )
      requests = (UnprocessedItems?.[tableName()] ?? []) as typeof requests
    } catch (error) {
      timedOut += 1
      if (!(error instanceof DatabaseUnavailable) || timedOut === TIMED_OUT_ATTEMPTS) throw error
    }
  }
}

/**
 * Writes `count` settled trades of `wallet`, one millisecond apart ending `now`, amount n for the
 * n-th, and sets its head and tail counters to `count`. Settled, so the reconciler's pending
 * index stays as other tests left it.
 */
export async function writeTrades(
  wallet: Address,
  count: number,
  { now = new Date(), numbered = true }: { now?: Date; numbered?: boolean } = {},
): Promise<void> {
  const other = privateKeyToAccount(generatePrivateKey()).address
  const items = Array.from({ length: count }, (_, index) => {
    const createdAt = new Date(now.getTime() - (count - 1 - index))
    const position = index + 1
    const item = tradeItem(
      {
        hash: toHex(randomBytes(32)),
        type: 'transfer',
        network: 'ethereum',
        wallet,
        from: wallet,
        to: other,
        amount: String(index + 1),
        token: NATIVE_COIN,
        isNativeTransfer: true,
        outcome: { status: 'successful', gasUsed: 21_000n, blockNumber: 1n },
      },
      timeOrderedUuid(createdAt),
      createdAt,
      position,
    )
    if (numbered) return [item, pageEntryItem(item, position)]
    // As a release before positions wrote it.
    const unnumbered: Record<string, unknown> = { ...item }
    delete unnumbered.position
    return [unnumbered]
  }).flat()
  const batches = Array.from({ length: Math.ceil(items.length / BATCH) }, (_, index) =>
    items.slice(index * BATCH, (index + 1) * BATCH),
  )
  await mapConcurrently(batches, CONCURRENCY, writeBatch)
  const { head, tail } = tradeCounterKeys(wallet)
  for (const Key of [head, tail]) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...Key,
          type: 'TradeCounter',
          tradeCount: count,
          ...(numbered && Key === tail && { lastPosition: count }),
        },
      }),
    )
  }
}
