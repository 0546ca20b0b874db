import '../../support/env'
import { describe, expect, it } from 'vitest'
import { countRequests } from '../../support/requestCounters'
import { db } from '../../../lib/db/client'
import { listJournalledDeposits } from '../../../lib/db/depositJournal'
import { depositId, findRecordedDeposits, recordDeposits } from '../../../lib/db/depositRecords'
import { listTrades } from '../../../lib/db/trade'
import { readTradeTail } from '../../../lib/db/tradeTail'
import { randomAddress } from '../../support/marketFixtures'
import { createMockDeposit } from '../../support/tradeFixtures'

// The indexer's writes (DECISIONS §9.1): a wallet's deposits many to a transaction, each once.

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

describe('recordDeposits', () => {
  it('records a deposit once per (hash, log index), however many runs ask at once', async () => {
    const wallet = randomAddress()
    const deposit = createMockDeposit({ wallet, place: 3 })

    const results = await Promise.all([
      recordDeposits(wallet, [deposit]),
      recordDeposits(wallet, [deposit]),
      recordDeposits(wallet, [deposit]),
    ])
    const other = await recordDeposits(wallet, [{ ...deposit, place: 4 }])

    expect(results.map((result) => result.recorded).sort()).toEqual([0, 0, 1])
    expect(results.map((result) => result.handled)).toEqual([1, 1, 1])
    expect(other).toMatchObject({ recorded: 1, handled: 1 })
    const { count, trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })
    expect(count).toBe(2)
    expect(trades.map((trade) => [trade.logIndex, trade.position])).toEqual([
      [3, 1],
      [4, 2],
    ])
  })

  it('writes 60 deposits of a wallet in 3 transactions, positions 1..60 in the order given', async () => {
    const wallet = randomAddress()
    const deposits = range(1, 60).map((n) =>
      createMockDeposit({ wallet, place: n, amount: String(n), blockNumber: 1_000_000_000n }),
    )
    const counter = countRequests(db())

    const result = await recordDeposits(wallet, deposits)

    const { dynamo } = counter.take()
    counter.stop()
    // The tail is read once; 24 deposits (98 items) a transaction.
    expect(dynamo.byCommand).toEqual({ GetItem: 1, TransactWriteItems: 3 })
    expect(result).toMatchObject({ recorded: 60, handled: 60 })
    expect(result.tail).toEqual(await readTradeTail(wallet))
    expect(await readTradeTail(wallet)).toEqual({ count: 60, lastPosition: 60, holes: [] })
    const { trades } = await listTrades({ wallet, limit: 100, offset: 0, direction: 'ASC' })
    expect(trades.map((trade) => [Number(trade.amount), trade.position])).toEqual(
      range(1, 60).map((n) => [n, n]),
    )
    // Ids made in the same millisecond sort as the positions do.
    expect(trades.map((trade) => trade.id)).toEqual(trades.map((trade) => trade.id).toSorted())
    const journal = (await listJournalledDeposits('ethereum', 1_000_000_000n)).filter(
      (entry) => entry.wallet.toLowerCase() === wallet.toLowerCase(),
    )
    expect(journal).toHaveLength(60)
  })

  it('records, in a batch where another run recorded some, only the others, at the next positions', async () => {
    const wallet = randomAddress()
    const deposits = range(1, 5).map((n) => createMockDeposit({ wallet, place: n }))
    await recordDeposits(
      wallet,
      [deposits[1], deposits[3]].filter((d) => d !== undefined),
    )

    const result = await recordDeposits(wallet, deposits)

    expect(result).toMatchObject({ recorded: 3, handled: 5 })
    const { count } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })
    expect(count).toBe(5)
    expect(await readTradeTail(wallet)).toEqual({ count: 5, lastPosition: 5, holes: [] })
  })

  it('stops before a transaction when told to, leaving the rest unhandled', async () => {
    const wallet = randomAddress()
    const deposits = range(1, 30).map((n) => createMockDeposit({ wallet, place: n }))
    let asked = 0

    const result = await recordDeposits(wallet, deposits, { more: () => (asked += 1) === 1 })

    expect(result).toMatchObject({ recorded: 24, handled: 24 })
    const recorded = await findRecordedDeposits(deposits)
    expect(deposits.map((deposit) => recorded.has(depositId(deposit)))).toEqual(
      range(1, 30).map((n) => n <= 24),
    )
  })
})
