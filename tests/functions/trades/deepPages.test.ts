import '../../support/env'
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler } from '../../../functions/trades/listTrades'
import { loadCoreConfig } from '../../../lib/config'
import { db, tableName } from '../../../lib/db/client'
import { tradeCounterKeys } from '../../../lib/db/keys'
import { writeTrades } from '../../support/bulkTrades'
import { httpEvent, invoke } from '../../support/httpEvent'
import { countRequests } from '../../support/requestCounters'
import { signInWithWallet } from '../../support/walletSignIn'

// Issue 22, "Deep trade pages" (DECISIONS §8.2, "Pages cost the page"): with 10,000 trades the
// page at offset 9,900 read offset + limit + 2 items and timed out (503 here, 500 in the report).
// Now every page reads its own entries and one counter, whatever the offset.

const TRADES = 10_000
const LIMIT = 100
let wallet: Awaited<ReturnType<typeof signInWithWallet>>
/** The wallet's trade ids oldest first, read independently: every trade item, in key order. */
let idsOldestFirst: string[]

beforeAll(async () => {
  wallet = await signInWithWallet()
  await writeTrades(wallet.address, TRADES)
  const { head, tail } = tradeCounterKeys(wallet.address)
  const items = await referenceQuery({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :head AND :tail',
    FilterExpression: '#type = :trade',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: {
      ':pk': head.pk,
      ':head': head.sk,
      ':tail': tail.sk,
      ':trade': 'Trade',
    },
    ProjectionExpression: 'id',
  })
  idsOldestFirst = items.map((item) => String(item.id))
  expect(idsOldestFirst).toHaveLength(TRADES)
}, 300_000)

/**
 * Every item a Query matches, through a client of its own with a generous timeout: the reference
 * reads all 20,000 items of the wallet, which the service's 1 s timeout is not meant for.
 */
async function referenceQuery(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const { region, dynamoEndpoint } = loadCoreConfig()
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region,
      endpoint: dynamoEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      requestHandler: { requestTimeout: 60_000 },
    }),
  )
  const items: Record<string, unknown>[] = []
  let startKey: Record<string, unknown> | undefined
  do {
    const answer = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }))
    items.push(...(answer.Items ?? []))
    startKey = answer.LastEvaluatedKey
  } while (startKey)
  client.destroy()
  return items
}

async function page(query: Record<string, string>) {
  const request = () =>
    invoke(
      handler,
      httpEvent({
        route: 'listTrades',
        queryStringParameters: { limit: String(LIMIT), ...query },
        headers: { authorization: `Bearer ${wallet.access}` },
      }),
    )
  await request() // warm
  const counter = countRequests(db())
  try {
    const response = await request()
    const { dynamo } = counter.take()
    const result = response.body.result as
      { count: number; trades: Array<{ id: string; amount: number }> } | undefined
    return {
      status: response.status,
      count: result?.count,
      ids: result?.trades.map((trade) => trade.id),
      amounts: result?.trades.map((trade) => trade.amount),
      itemsRead: dynamo.itemsRead,
      calls: dynamo.calls,
    }
  } finally {
    counter.stop()
  }
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from <= to ? from + i : from - i))

describe('GET /v1/trades deep in 10,000 trades', () => {
  it('reads as many items for the page at offset 9,900 as for the first, with the same content as an independent listing', async () => {
    const first = await page({})
    const deep = await page({ offset: '9900' })

    expect(first).toMatchObject({
      status: 200,
      count: TRADES,
      ids: idsOldestFirst.slice(-LIMIT).reverse(),
      amounts: range(TRADES, TRADES - LIMIT + 1),
    })
    expect(deep).toMatchObject({
      status: 200,
      count: TRADES,
      ids: idsOldestFirst.slice(0, LIMIT).reverse(),
      amounts: range(LIMIT, 1),
    })
    // The session, the tail counter and the page's 100 entries, in both.
    expect(first.itemsRead).toBe(1 + 1 + LIMIT)
    expect(deep.itemsRead).toBe(first.itemsRead)
  })

  it('answers the pages of either direction at any offset with what an independent listing holds', async () => {
    for (const [offset, direction] of [
      [9_900, 'ASC'],
      [5_050, 'ASC'],
      [5_050, 'DESC'],
      [9_950, 'DESC'],
      [1, 'ASC'],
    ] as const) {
      const answer = await page({ offset: String(offset), direction })
      const oldestFirst =
        direction === 'ASC'
          ? idsOldestFirst.slice(offset, offset + LIMIT)
          : idsOldestFirst.slice(Math.max(0, TRADES - offset - LIMIT), TRADES - offset).reverse()

      expect(answer).toMatchObject({ status: 200, count: TRADES, ids: oldestFirst })
      expect(answer.itemsRead).toBeLessThanOrEqual(1 + 1 + LIMIT)
    }
  })

  it('answers count and no trades past the end, reading only the counter', async () => {
    const past = await page({ offset: String(TRADES) })

    expect(past).toMatchObject({ status: 200, count: TRADES, ids: [], itemsRead: 1 + 1 })
  })
})
