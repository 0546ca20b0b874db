import '../../support/env'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  findTradeByHash,
  getTrade,
  listPendingTrades,
  listTrades,
  recordTrade,
  settleTrade,
} from '../../../lib/db/trade'
import { findCounterpartiesLike } from '../../../lib/db/counterparties'
import { randomAddress } from '../../support/marketFixtures'
import { createMockTrade } from '../../support/tradeFixtures'

describe('recordTrade', () => {
  it('records a pending trade that getTrade and findTradeByHash return to its wallet only', async () => {
    const trade = createMockTrade()

    const { id, tail } = await recordTrade(trade)

    expect(tail).toEqual({ count: 1, lastPosition: 1, holes: [] })
    expect(await getTrade(trade.wallet, id)).toEqual({
      ...trade,
      id,
      status: 'pending',
      wallet: getAddress(trade.wallet),
      logIndex: undefined,
      gasUsed: undefined,
      blockNumber: undefined,
      createdAt: expect.any(Date),
      // The wallet's first trade.
      position: 1,
    })
    expect((await findTradeByHash(trade.wallet, trade.hash.toUpperCase()))?.id).toBe(id)
    expect(await getTrade(randomAddress(), id)).toBeUndefined()
    expect(await findTradeByHash(randomAddress(), trade.hash)).toBeUndefined()
  })

  it('keeps the address the wallet sent to, found by how it looks (first and last four hex digits)', async () => {
    const trade = createMockTrade()
    const other = createMockTrade({ wallet: trade.wallet })

    await recordTrade(trade)
    await recordTrade({ ...other, to: trade.to })
    await recordTrade(other)

    const like = await findCounterpartiesLike([
      { wallet: trade.wallet, sender: trade.to },
      { wallet: trade.wallet, sender: other.to },
      { wallet: randomAddress(), sender: trade.to },
    ])
    expect(like({ wallet: trade.wallet, sender: trade.to })).toEqual(
      new Set([trade.to.toLowerCase()]),
    )
    expect(like({ wallet: trade.wallet, sender: other.to })).toEqual(
      new Set([other.to.toLowerCase()]),
    )
    expect(like({ wallet: randomAddress(), sender: trade.to })).toEqual(new Set())
  })

  it('refuses a deposit: the indexer records those, once per transfer (recordDeposits)', async () => {
    const deposit = createMockTrade({ type: 'deposit' })

    await expect(recordTrade(deposit)).rejects.toThrow(TypeError)
    expect(
      (await listTrades({ wallet: deposit.wallet, limit: 10, offset: 0, direction: 'ASC' })).count,
    ).toBe(0)
  })
})

describe('settleTrade', () => {
  it('moves a pending trade once and takes it out of the pending index', async () => {
    const trade = createMockTrade({ network: 'altchain' })
    const { id } = await recordTrade(trade)
    const pending = await getTrade(trade.wallet, id)
    if (!pending) throw new Error('the trade was not recorded')
    const outcome = { status: 'failed', gasUsed: 30_000n, blockNumber: 12n } as const

    const settled = await settleTrade(pending, outcome)
    const again = await settleTrade(pending, { ...outcome, status: 'successful' })

    expect(settled).toMatchObject({ id, ...outcome })
    expect(again).toBeUndefined()
    expect((await getTrade(trade.wallet, id))?.status).toBe('failed')
    const { trades } = await listPendingTrades('altchain', { limit: 1000 })
    expect(trades.map((pending) => pending.id)).not.toContain(id)
  })
})
