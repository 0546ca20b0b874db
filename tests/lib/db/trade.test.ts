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
import { randomAddress } from '../../support/marketFixtures'
import { createMockTrade } from '../../support/tradeFixtures'

describe('recordTrade', () => {
  it('records a pending trade that getTrade and findTradeByHash return to its wallet only', async () => {
    const trade = createMockTrade()

    const { id, created } = await recordTrade(trade)

    expect(created).toBe(true)
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

  it('records a deposit once per (hash, log index), returning the first id again', async () => {
    const deposit = createMockTrade({
      type: 'deposit',
      isNativeTransfer: false,
      token: randomAddress(),
      logIndex: 3,
      outcome: { status: 'successful', gasUsed: 51_000n, blockNumber: 7n },
    })

    const results = await Promise.all([recordTrade(deposit), recordTrade(deposit)])
    const other = await recordTrade({ ...deposit, logIndex: 4 })

    expect(results.map((result) => result.created).sort()).toEqual([false, true])
    expect(results[0]?.id).toBe(results[1]?.id)
    expect(other.created).toBe(true)
    expect(
      (await listTrades({ wallet: deposit.wallet, limit: 10, offset: 0, direction: 'ASC' })).count,
    ).toBe(2)
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
