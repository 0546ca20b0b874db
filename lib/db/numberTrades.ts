import { GetCommand, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb'
import { mapConcurrently } from '../mapConcurrently'
import { db, tableName } from './client'
import { tradeCounterKeys, tradeKey, tradePositionKey, TRADE_POSITION_PREFIX } from './keys'
import { queryAll } from './queryAll'
import { pageEntryItem } from './tradePageEntry'
import { transact } from './writeConflicts'

// The migration of a table written before positions existed: its trades have no page entry and
// their wallet's tail counter no last position, which the service no longer reads (it refuses
// such a wallet, naming this command). `npm run trades:number` numbers them; run it once, on the
// release before this one (which still pages such wallets from an end and records their new
// trades unnumbered), then deploy (docs/operations.md). It is safe to run while that release
// records trades (a trade recorded meanwhile makes its wallet go round once more) and to run
// again.

/** Whether the wallet's tail has a last position (or the wallet has no trade): one GetItem. */
async function isNumbered(wallet: string): Promise<boolean> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: tradeCounterKeys(wallet).tail,
      ConsistentRead: true,
    }),
  )
  return Item?.lastPosition !== undefined || Number(Item?.tradeCount ?? 0) === 0
}

const CONCURRENCY = 8
// A wallet that keeps receiving unnumbered trades while it is numbered is left for the next run.
const ROUNDS = 5

/**
 * Numbers the trades of `wallet` 1..n in creation order (their ids), writing each page entry
 * beside its trade, then gives the tail counter its last position, n, only if the wallet still
 * has n trades and no last position. Returns the number of trades, or undefined when it already
 * had positions.
 */
export async function numberWalletTrades(wallet: string): Promise<number | undefined> {
  for (let round = 1; round <= ROUNDS; round += 1) {
    if (await isNumbered(wallet)) return undefined
    const { head, tail } = tradeCounterKeys(wallet)
    const items = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :head AND :tail',
      ExpressionAttributeValues: { ':pk': head.pk, ':head': head.sk, ':tail': tail.sk },
      ConsistentRead: true,
    })
    const trades = items.filter((item) => item.type === 'Trade')
    const entries = items.filter((item) => String(item.sk).startsWith(TRADE_POSITION_PREFIX))
    const missed = await mapConcurrently(
      trades.map((trade, index) => ({ trade, position: index + 1 })),
      CONCURRENCY,
      async ({ trade, position }) => {
        if (Number(trade.position) === position) return false
        // Only as read: a trade settled meanwhile is numbered with its new status next round.
        const failed = await transact([
          {
            Update: {
              TableName: tableName(),
              Key: tradeKey(String(trade.wallet), String(trade.id)),
              UpdateExpression: 'SET #position = :position',
              ConditionExpression: '#status = :status',
              ExpressionAttributeNames: { '#position': 'position', '#status': 'status' },
              ExpressionAttributeValues: { ':position': position, ':status': trade.status },
            },
          },
          { Put: { TableName: tableName(), Item: pageEntryItem(trade, position) } },
        ])
        return failed !== undefined
      },
    )
    // Entries past the last trade: left by a round whose trades a reorganisation then removed.
    const stale = entries.filter((entry) => Number(entry.position) > trades.length)
    for (const entry of stale) {
      await transact([
        {
          Delete: {
            TableName: tableName(),
            Key: tradePositionKey(wallet, Number(entry.position)),
          },
        },
      ])
    }
    if (missed.includes(true)) continue
    const failed = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: tail,
          UpdateExpression: 'SET lastPosition = :count',
          ConditionExpression: 'tradeCount = :count AND attribute_not_exists(lastPosition)',
          ExpressionAttributeValues: { ':count': trades.length },
        },
      },
    ])
    if (!failed) return trades.length
  }
  throw new Error(`${wallet}: trades kept arriving while they were numbered; run again`)
}

/**
 * Numbers every wallet of the table whose trades have no positions (a Scan: a command, never a
 * request path). Returns the wallets numbered.
 */
export async function backfillTradePositions(): Promise<string[]> {
  const numbered: string[] = []
  let startKey: ScanCommandInput['ExclusiveStartKey']
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression:
          '#type = :counter AND sk = :tail AND attribute_not_exists(lastPosition) AND tradeCount > :zero',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':counter': 'TradeCounter', ':tail': 'TRADE#~', ':zero': 0 },
        ExclusiveStartKey: startKey,
      }),
    )
    for (const counter of page.Items ?? []) {
      const wallet = String(counter.pk).slice('WALLET#'.length)
      if ((await numberWalletTrades(wallet)) !== undefined) numbered.push(wallet)
    }
    startKey = page.LastEvaluatedKey
  } while (startKey)
  return numbered
}
