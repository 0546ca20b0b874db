import '../../support/env'
import { randomBytes, randomInt } from 'node:crypto'
import { toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { listJournalledDeposits, removeJournalledDeposit } from '../../../lib/db/depositJournal'
import { recordDeposits } from '../../../lib/db/depositRecords'
import { numberWalletTrades } from '../../../lib/db/numberTrades'
import { getTrade, listTrades, recordTrade, settleTrade } from '../../../lib/db/trade'
import type { Direction } from '../../../lib/db/tradeItem'
import { readTradeTail } from '../../../lib/db/tradeTail'
import { writeTrades } from '../../support/bulkTrades'
import { randomAddress } from '../../support/marketFixtures'
import { createMockDeposit, createMockTrade } from '../../support/tradeFixtures'

// Issue 22, "Deep trade pages": every writer keeps a wallet's positions dense and in creation
// order (recordTrade: swaps, transfers, submits; recordDeposits: the indexer; settleTrade: the
// reconciler; a reorganisation's removal), and trades recorded before positions are numbered by
// the migration (npm run trades:number) before the service reads them.

async function amounts(wallet: string, limit: number, offset: number, direction: Direction) {
  const { count, trades } = await listTrades({ wallet, limit, offset, direction })
  return { count, amounts: trades.map((trade) => Number(trade.amount)) }
}

/** Every page of `limit` in both directions, concatenated: each trade once, in order. */
async function walk(wallet: string, limit: number) {
  const walked: Record<Direction, number[]> = { ASC: [], DESC: [] }
  for (const direction of ['ASC', 'DESC'] as const) {
    const { count } = await listTrades({ wallet, limit: 1, offset: 0, direction })
    for (let offset = 0; offset < count; offset += limit) {
      walked[direction].push(...(await amounts(wallet, limit, offset, direction)).amounts)
    }
  }
  return walked
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

describe('trade positions', () => {
  it('numbers trades recorded at once for one wallet 1..n, in creation order', async () => {
    const wallet = randomAddress()
    const recorded = await Promise.all(
      range(1, 6).map((n) => recordTrade(createMockTrade({ wallet, amount: String(n) }))),
    )
    const trades = await Promise.all(recorded.map(({ id }) => getTrade(wallet, id)))
    const byPosition = trades.toSorted((a, b) => (a?.position ?? 0) - (b?.position ?? 0))

    expect(byPosition.map((trade) => trade?.position)).toEqual(range(1, 6))
    const created = byPosition.map((trade) => trade?.createdAt.getTime() ?? 0)
    expect(created).toEqual(created.toSorted((a, b) => a - b))
    const listed = await listTrades({ wallet, limit: 4, offset: 2, direction: 'ASC' })
    expect(listed.trades.map((trade) => trade.id)).toEqual(
      byPosition.slice(2, 6).map((trade) => trade?.id),
    )
    expect(await readTradeTail(wallet)).toEqual({ count: 6, lastPosition: 6, holes: [] })
  })

  it('keeps a settled trade’s page entry equal to the trade', async () => {
    const trade = createMockTrade()
    const { id } = await recordTrade(trade)
    const pending = await getTrade(trade.wallet, id)
    if (!pending) throw new Error('not recorded')

    await settleTrade(pending, { status: 'successful', gasUsed: 21_000n, blockNumber: 9n })

    const [listed] = (
      await listTrades({ wallet: trade.wallet, limit: 1, offset: 0, direction: 'ASC' })
    ).trades
    expect(listed).toEqual(await getTrade(trade.wallet, id))
    expect(listed).toMatchObject({ status: 'successful', gasUsed: 21_000n, blockNumber: 9n })
  })

  it('steps over the positions of deposits a reorganisation removed', async () => {
    const wallet = randomAddress()
    // A block far from any other test's, so the journal read below holds only these deposits.
    const blockNumber = BigInt(randomInt(1e9, 2e9))
    const blockHash = toHex(randomBytes(32))
    await recordDeposits(
      wallet,
      range(1, 6).map((n) =>
        createMockDeposit({ wallet, amount: String(n), place: n, blockNumber, blockHash }),
      ),
    )
    const journal = (await listJournalledDeposits('ethereum', blockNumber)).filter(
      (entry) =>
        entry.blockNumber === blockNumber && entry.wallet.toLowerCase() === wallet.toLowerCase(),
    )
    const positions = await Promise.all(
      journal.map(async (entry) => (await getTrade(wallet, entry.tradeId))?.position),
    )
    for (const position of [2, 4]) {
      const entry = journal[positions.indexOf(position)]
      if (!entry) throw new Error(`no deposit at position ${position}`)
      await removeJournalledDeposit(entry)
    }
    await recordTrade(createMockTrade({ wallet, amount: '7' }))

    expect(await readTradeTail(wallet)).toEqual({ count: 5, lastPosition: 7, holes: [2, 4] })
    expect(await amounts(wallet, 2, 1, 'ASC')).toEqual({ count: 5, amounts: [3, 5] })
    expect(await amounts(wallet, 2, 2, 'DESC')).toEqual({ count: 5, amounts: [5, 3] })
    expect(await walk(wallet, 2)).toEqual({ ASC: [1, 3, 5, 6, 7], DESC: [7, 6, 5, 3, 1] })
  })

  it('refuses a wallet recorded before positions until the migration numbers it, then pages it by position', async () => {
    const wallet = randomAddress()
    await writeTrades(wallet, 30, { numbered: false })
    const page = { wallet, limit: 7, offset: 0, direction: 'ASC' } as const
    const unnumbered = /run npm run trades:number/

    await expect(listTrades(page)).rejects.toThrow(unnumbered)
    await expect(recordTrade(createMockTrade({ wallet, amount: '31' }))).rejects.toThrow(unnumbered)

    expect(await numberWalletTrades(wallet)).toBe(30)
    expect(await numberWalletTrades(wallet)).toBeUndefined()
    await recordTrade(createMockTrade({ wallet, amount: '31' }), {
      now: new Date(Date.now() + 1_000),
    })

    expect(await readTradeTail(wallet)).toEqual({ count: 31, lastPosition: 31, holes: [] })
    expect(await walk(wallet, 7)).toEqual({ ASC: range(1, 31), DESC: range(1, 31).reverse() })
    expect(await amounts(wallet, 3, 28, 'ASC')).toEqual({ count: 31, amounts: [29, 30, 31] })
  })
})
