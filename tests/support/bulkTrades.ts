import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import { randomBytes } from 'node:crypto'
import { type Address, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { mapConcurrently } from '../../lib/mapConcurrently'
import { db, tableName } from '../../lib/db/client'
import { timeOrderedUuid } from '../../lib/db/ids'
import { tradeCounterKeys } from '../../lib/db/keys'
import { NATIVE_COIN } from '../../lib/constants'
import { tradeItem } from '../../lib/db/trade'

// A wallet with thousands of trades, written fast: the items recordTrade writes (tradeItem, the
// same keys) in BatchWrites of 25, then both counters set to the total. No per-trade transaction:
// 10,000 of them would take minutes, and only the shape of the items matters to the reads.

const BATCH = 25
const CONCURRENCY = 8

async function writeBatch(items: Record<string, unknown>[]): Promise<void> {
  let requests = items.map((Item) => ({ PutRequest: { Item } }))
  while (requests.length > 0) {
    const { UnprocessedItems } = await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }),
    )
    requests = (UnprocessedItems?.[tableName()] ?? []) as typeof requests
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
  { now = new Date() }: { now?: Date } = {},
): Promise<void> {
  const other = privateKeyToAccount(generatePrivateKey()).address
  const items = Array.from({ length: count }, (_, index) => {
    const createdAt = new Date(now.getTime() - (count - 1 - index))
    return tradeItem(
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
    )
  })
  const batches = Array.from({ length: Math.ceil(count / BATCH) }, (_, index) =>
    items.slice(index * BATCH, (index + 1) * BATCH),
  )
  await mapConcurrently(batches, CONCURRENCY, writeBatch)
  const { head, tail } = tradeCounterKeys(wallet)
  for (const Key of [head, tail]) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...Key, type: 'TradeCounter', tradeCount: count },
      }),
    )
  }
}
