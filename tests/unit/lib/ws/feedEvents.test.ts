import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { priceEvents, pricesFeed } from '../../../../lib/ws/priceFeed'
import { tradeEvents, tradesFeed } from '../../../../lib/ws/tradeFeed'

// The trades topic's events from a trade item's old and new images (the table's stream).

const WALLET = '0xAbCdEf0000000000000000000000000000000001'
const trade = (fields: Record<string, unknown>) => ({
  type: 'Trade',
  id: '019a8f2d-9e0b-7c4a-8d1e-2f3a4b5c6d7e',
  hash: `0x${'ab'.repeat(32)}`,
  network: 'ethereum',
  tradeType: 'swap',
  wallet: WALLET,
  status: 'pending',
  ...fields,
})

const kinds = (before?: Record<string, unknown>, after?: Record<string, unknown>) =>
  tradeEvents(before, after).map(({ event }) => event.event)

describe('tradeEvents', () => {
  it('names each step of a trade in the order it is pushed', () => {
    const pending = trade({})
    const mined = trade({ status: 'successful', blockNumber: 12, gasUsed: 21000 })
    const reverted = trade({ status: 'failed', blockNumber: 12 })
    const deposit = trade({ tradeType: 'deposit', status: 'successful', blockNumber: 9 })

    expect({
      recorded: kinds(undefined, pending),
      settled: kinds(pending, mined),
      reverted: kinds(pending, reverted),
      deposit: kinds(undefined, deposit),
      orphaned: kinds(deposit, undefined),
      unchanged: kinds(mined, mined),
    }).toEqual({
      recorded: ['submitted'],
      settled: ['included', 'confirmed'],
      reverted: ['included', 'failed'],
      deposit: ['deposit'],
      orphaned: ['reorged'],
      unchanged: [],
    })
  })

  it("puts every event in its wallet's feed (lower-cased) with the hash and the block once known", () => {
    const [submitted] = tradeEvents(undefined, trade({}))
    const [included] = tradeEvents(trade({}), trade({ status: 'successful', blockNumber: 12 }))

    expect(submitted).toEqual({
      feed: `trades#${WALLET.toLowerCase()}`,
      event: expect.not.objectContaining({ blockNumber: expect.anything() }),
    })
    expect(included?.event).toMatchObject({ hash: `0x${'ab'.repeat(32)}`, blockNumber: 12 })
    expect(tradesFeed(WALLET)).toBe(tradesFeed(WALLET.toUpperCase().replace('0X', '0x')))
  })

  it('ignores every item that is not a trade (page entries, counters, the push items)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('TradePosition', 'WsEvent', 'WsSubscription', 'Session', undefined),
        fc.constantFrom('pending', 'successful', 'failed'),
        (type, status) => {
          const item = trade({ type, status })
          expect(tradeEvents(undefined, item)).toEqual([])
          expect(tradeEvents(item, undefined)).toEqual([])
        },
      ),
      { seed: 41 },
    )
  })
})

describe('priceEvents', () => {
  const project = (fields: Record<string, unknown>) => ({
    type: 'Project',
    id: '3f0c9a52-5d0b-5b7e-9c1d-2a3b4c5d6e7f',
    ...fields,
  })

  it('pushes a new price point only, in the project’s feed', () => {
    const before = project({ price: '1.5', priceAt: '2026-12-07T20:00:00.000Z', watchLists: 1 })
    const repriced = project({ price: '1.6', priceAt: '2026-12-07T20:05:00.000Z', watchLists: 1 })
    const watchedAgain = project({ ...before, watchLists: 2 })

    expect(priceEvents(before, repriced)).toEqual([
      {
        feed: pricesFeed('3f0c9a52-5d0b-5b7e-9c1d-2a3b4c5d6e7f'),
        event: {
          topic: 'prices',
          projectId: '3f0c9a52-5d0b-5b7e-9c1d-2a3b4c5d6e7f',
          price: '1.6',
          at: '2026-12-07T20:05:00.000Z',
        },
      },
    ])
    expect(priceEvents(before, watchedAgain)).toEqual([])
    expect(priceEvents(undefined, project({}))).toEqual([])
    expect(priceEvents(before, undefined)).toEqual([])
  })
})
