import '../../support/env'
import { randomBytes } from 'node:crypto'
import { toHex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler } from '../../../functions/trades/listTrades'
import { recordTrade } from '../../../lib/db/trade'
import { httpEvent, invoke } from '../../support/httpEvent'
import { createMockTrade } from '../../support/tradeFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { spyOnDbSend } from '../../support/dbSendSpy'

interface ListResult {
  count: number
  trades: Array<{ id: string; type: string; status: string; amount: number }>
}

const TRADES = 25
let access: string

function list(query: Record<string, string> = {}, token = access) {
  return invoke(
    handler,
    httpEvent({
      route: 'listTrades',
      queryStringParameters: query,
      headers: { authorization: `Bearer ${token}` },
    }),
  )
}

async function amounts(query: Record<string, string>) {
  const response = await list(query)
  const result = response.body.result as ListResult
  return { count: result.count, amounts: result.trades.map((trade) => trade.amount) }
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from <= to ? from + i : from - i))

// 25 trades one millisecond apart, amount n for the n-th, so order shows in the amounts.
beforeAll(async () => {
  const wallet = await signInWithWallet()
  access = wallet.access
  const start = Date.now() - 60_000
  for (let n = 1; n <= TRADES; n += 1) {
    await recordTrade(
      createMockTrade({
        hash: toHex(randomBytes(32)),
        wallet: wallet.address,
        from: wallet.address,
        amount: String(n),
        type: n % 2 ? 'swap' : 'transfer',
      }),
      { now: new Date(start + n) },
    )
  }
})

describe('GET /v1/trades', () => {
  it('answers the newest 10 and the wallet’s count by default', async () => {
    const response = await list()

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          count: TRADES,
          trades: range(25, 16).map((amount) => ({
            id: expect.any(String),
            type: amount % 2 ? 'swap' : 'transfer',
            status: 'pending',
            amount,
            amountExact: String(amount),
          })),
        },
      },
    })
  })

  it('pages with limit and offset in both directions, direction in any case', async () => {
    expect(await amounts({ limit: '10', offset: '20' })).toEqual({
      count: 25,
      amounts: range(5, 1),
    })
    expect(await amounts({ limit: '7', offset: '3', direction: 'asc' })).toEqual({
      count: 25,
      amounts: range(4, 10),
    })
    expect(await amounts({ offset: '25', direction: 'Desc', sort: 'createdAt' })).toEqual({
      count: 25,
      amounts: [],
    })
  })

  it('walks all 25 trades page by page, once each, in either direction', async () => {
    for (const direction of ['ASC', 'DESC']) {
      const seen: number[] = []
      for (let offset = 0; offset < TRADES; offset += 4) {
        seen.push(...(await amounts({ limit: '4', offset: String(offset), direction })).amounts)
      }
      expect(seen).toEqual(direction === 'ASC' ? range(1, 25) : range(25, 1))
    }
  })

  it('answers count 0 and no trades for a wallet without trades', async () => {
    const other = await signInWithWallet()

    const response = await list({}, other.access)

    expect(response.body.result).toEqual({ count: 0, trades: [] })
  })

  it('reads the newest page with the session and one Query for page and count', async () => {
    const send = spyOnDbSend()
    const response = await list({ limit: '100' })

    expect(response.status).toBe(200)
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('reads any other page with the session, the count and one Query for the page', async () => {
    const send = spyOnDbSend()
    const queries: Array<Record<string, string>> = [
      { direction: 'ASC' },
      { offset: '7' },
      { offset: '7', direction: 'ASC' },
    ]
    for (const query of queries) {
      send.mockClear()
      const response = await list({ limit: '100', ...query })

      expect(response.status).toBe(200)
      expect(send.mock.calls.map(([command]) => command.constructor.name)).toEqual([
        'GetCommand',
        'GetCommand',
        'QueryCommand',
      ])
    }
  })

  it.each([
    [{ limit: '0' }, 'query.limit'],
    [{ limit: '101' }, 'query.limit'],
    [{ limit: 'ten' }, 'query.limit'],
    [{ offset: '-1' }, 'query.offset'],
    [{ direction: 'up' }, 'query.direction'],
    [{ sort: 'amount' }, 'query.sort'],
    [{ page: '2' }, 'query'],
  ])('answers 400 for %j naming %s', async (query, path) => {
    const response = await list(query)

    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({
      code: 400,
      details: [expect.objectContaining({ path })],
    })
  })

  it('answers 401001 without a bearer token', async () => {
    const response = await invoke(handler, httpEvent({ route: 'listTrades' }))

    expect(response.body.error?.code).toBe(401001)
  })
})
