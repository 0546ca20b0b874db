import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { batchGetItems, itemId } from './batchGet'
import { db, tableName } from './client'
import { tradeCounterKeys } from './keys'
import type { TransactItem } from './session'

// Numbered positions with holes (DECISIONS §8.2, "Pages cost the page"): each trade of a wallet
// takes the next position, 1, 2, 3..., from the tail counter TRADE#~, which keeps the count of
// live trades, the last position given and the positions whose trade a reorganisation removed.

/** Where a wallet's next trade goes, from its tail counter. */
export interface TradeTail {
  /** Live trades. */
  count: number
  /** The last position given; 0 before the first trade. */
  lastPosition: number
  /** Positions whose trade was removed (an orphaned deposit), ascending. */
  holes: number[]
}

/** A wallet whose trades a release before positions recorded, not numbered yet. */
export class TradesNotNumbered extends Error {
  override name = 'TradesNotNumbered'
}

export function toTradeTail(wallet: string, item: Record<string, unknown> | undefined): TradeTail {
  const count = Number(item?.tradeCount ?? 0)
  // Only a table written before positions existed has trades and no last position: its wallets
  // are numbered by `npm run trades:number` before this release serves (docs/operations.md).
  if (item?.lastPosition === undefined && count > 0) {
    throw new TradesNotNumbered(
      `the trades of ${wallet} are not numbered: run npm run trades:number`,
    )
  }
  const holes = [...((item?.holes as Set<number> | undefined) ?? [])].map(Number)
  return {
    count,
    lastPosition: Number(item?.lastPosition ?? 0),
    holes: holes.sort((a, b) => a - b),
  }
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
  return toTradeTail(wallet, Item)
}

/**
 * The tails of `wallets`, strongly consistent, by lower-cased address: one BatchGetItem per 100.
 * A wallet not numbered yet is left out (its writer reads it, and is refused).
 */
export async function readTradeTails(wallets: readonly string[]): Promise<Map<string, TradeTail>> {
  const keys = wallets.map((wallet) => tradeCounterKeys(wallet).tail)
  const items = await batchGetItems(keys, { consistentRead: true })
  const tails = new Map<string, TradeTail>()
  for (const [index, wallet] of wallets.entries()) {
    const key = keys[index]
    const item = key && items.get(itemId(key))
    if (item?.lastPosition === undefined && Number(item?.tradeCount ?? 0) > 0) continue
    tails.set(wallet.toLowerCase(), toTradeTail(wallet, item))
  }
  return tails
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
 * The counters' updates for `added` trades taking positions `lastPosition + 1` on: both counted,
 * and the last position moved only from the value read, so no two trades share a position (a
 * transaction that lost the race is refused at the tail, item `tailIndex` of the two).
 */
export function takePositions(wallet: string, tail: TradeTail, added: number): TransactItem[] {
  const { head, tail: tailKey } = tradeCounterKeys(wallet)
  const first = tail.lastPosition === 0
  return [
    {
      Update: {
        TableName: tableName(),
        Key: head,
        UpdateExpression: 'SET #type = :type ADD tradeCount :added',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'TradeCounter', ':added': added },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: tailKey,
        UpdateExpression: 'SET #type = :type, lastPosition = :position ADD tradeCount :added',
        ConditionExpression: first
          ? 'attribute_not_exists(lastPosition) AND (attribute_not_exists(tradeCount) OR tradeCount = :zero)'
          : 'lastPosition = :last',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'TradeCounter',
          ':added': added,
          ':position': tail.lastPosition + added,
          ...(first ? { ':zero': 0 } : { ':last': tail.lastPosition }),
        },
      },
    },
  ]
}

/** The tail after `added` trades took the next positions. */
export function tailAfter(tail: TradeTail, added: number): TradeTail {
  return { ...tail, count: tail.count + added, lastPosition: tail.lastPosition + added }
}
