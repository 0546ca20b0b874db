import '../../support/env'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/trades/listTrades'
import { db } from '../../../lib/db/client'
import { writeTrades } from '../../support/bulkTrades'
import { httpEvent, invoke } from '../../support/httpEvent'
import { countRequests } from '../../support/requestCounters'
import { signInWithWallet } from '../../support/walletSignIn'

// Issue 7, "Scale": the first page of a wallet's trades and its count cost the same whatever the
// wallet holds. Two sizes an order of magnitude apart keep `npm test` quick; the bench shows
// 100, 1,000 and 10,000.

async function firstPage(size: number) {
  const wallet = await signInWithWallet()
  await writeTrades(wallet.address, size)
  const request = () =>
    invoke(
      handler,
      httpEvent({
        route: 'listTrades',
        headers: { authorization: `Bearer ${wallet.access}` },
      }),
    )
  await request() // warm
  const counter = countRequests(db())
  try {
    const response = await request()
    const { dynamo } = counter.take()
    const result = response.body.result as { count: number; trades: Array<{ amount: number }> }
    return {
      status: response.status,
      count: result.count,
      amounts: result.trades.map((trade) => trade.amount),
      byCommand: dynamo.byCommand,
      itemsRead: dynamo.itemsRead,
    }
  } finally {
    counter.stop()
  }
}

describe('GET /v1/trades on a large wallet', () => {
  it('reads the same items with the same calls for the first page at 50 and 500 trades', async () => {
    const small = await firstPage(50)
    const large = await firstPage(500)

    const newestTen = (size: number) => Array.from({ length: 10 }, (_, index) => size - index)
    expect(small).toEqual({
      status: 200,
      count: 50,
      amounts: newestTen(50),
      byCommand: { GetItem: 1, Query: 1 },
      // The session, then the tail counter and the ten newest trades.
      itemsRead: 1 + 11,
    })
    expect(large).toEqual({ ...small, count: 500, amounts: newestTen(500) })
  })
})
