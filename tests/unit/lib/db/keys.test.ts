import { describe, expect, it } from 'vitest'
import {
  accountKey,
  depositCursorKey,
  depositMarkerKey,
  idempotencyKey,
  attemptWindowKey,
  clientWindowKey,
  depositJournalKey,
  familyKey,
  nonceKey,
  networkKey,
  pendingTradeIndexKey,
  priceBucketKey,
  priceHistoryMarkerKey,
  projectKey,
  sessionKey,
  tradeCounterKeys,
  tradeHashIndexKey,
  tradeKey,
  WALLET_NETWORK_PREFIX,
  walletKey,
  walletNetworkKey,
  WATCH_PREFIX,
  watchKey,
} from '../../../../lib/db/keys'
import { timeOrderedUuid } from '../../../../lib/db/ids'

// The key builders are the table's layout: a changed string strands every item already written.

const CHECKSUMMED = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const LOWER = CHECKSUMMED.toLowerCase()
const HASH = `0x${'AB'.repeat(32)}`

describe('the key builders of lib/db/keys.ts', () => {
  it('spell every key as the access-pattern table lists it', () => {
    expect(networkKey('ethereum')).toEqual({ pk: 'NETWORK', sk: 'NETWORK#ethereum' })
    expect(sessionKey('s1')).toEqual({ pk: 'SESSION#s1', sk: 'SESSION#s1' })
    expect(projectKey('p1')).toEqual({ pk: 'CATALOG', sk: 'PROJECT#p1' })
    expect(accountKey('Alice')).toEqual({ pk: 'USERNAME#alice', sk: 'ACCOUNT' })
    expect(attemptWindowKey('account', 'Alice', 900)).toEqual({
      pk: 'ATTEMPTS#ACCOUNT#alice',
      sk: 'WINDOW#900',
    })
    expect(attemptWindowKey('wallet', CHECKSUMMED, 0)).toEqual({
      pk: `ATTEMPTS#WALLET#${LOWER}`,
      sk: 'WINDOW#0',
    })
    expect(clientWindowKey('login', '2001:DB8::1', 60)).toEqual({
      pk: 'CLIENT#login#2001:db8::1',
      sk: 'WINDOW#60',
    })
    expect(nonceKey(CHECKSUMMED, new Date(1_000), 42)).toEqual({
      pk: `NONCE#${LOWER}`,
      sk: 'NONCE#000000000001000#42',
    })
    expect(familyKey('f1')).toEqual({ pk: 'FAMILY#f1', sk: 'FAMILY' })
    expect(depositJournalKey('ethereum', 12n, HASH, 'native')).toEqual({
      pk: 'DEPOSIT_JOURNAL#ethereum',
      sk: `BLOCK#000000000000012#${HASH.toLowerCase()}#NATIVE`,
    })
    expect(walletKey(CHECKSUMMED)).toEqual({ pk: `WALLET#${LOWER}`, sk: 'WALLET' })
    expect(tradeKey(CHECKSUMMED, 'ID')).toEqual({ pk: `WALLET#${LOWER}`, sk: 'TRADE#id' })
    expect(tradeHashIndexKey(HASH, CHECKSUMMED, 'ID')).toEqual({
      gsi1pk: `TXHASH#${HASH.toLowerCase()}`,
      gsi1sk: `WALLET#${LOWER}#TRADE#id`,
    })
    expect(pendingTradeIndexKey('altchain', 'ID')).toEqual({
      gsi2pk: 'PENDING#altchain',
      gsi2sk: 'TRADE#id',
    })
    expect(depositMarkerKey('ethereum', HASH, 3)).toEqual({
      pk: `DEPOSIT#ethereum#${HASH.toLowerCase()}`,
      sk: 'LOG#3',
    })
    expect(depositMarkerKey('ethereum', HASH, 'native').sk).toBe('NATIVE')
    expect(depositCursorKey('ethereum')).toEqual({ pk: 'DEPOSIT_CURSOR', sk: 'NETWORK#ethereum' })
    expect(idempotencyKey(CHECKSUMMED, 'h')).toEqual({ pk: `IDEMPOTENCY#${LOWER}`, sk: 'KEY#h' })
    expect(walletNetworkKey(CHECKSUMMED, 'n1')).toEqual({
      pk: `WALLET#${LOWER}`,
      sk: `${WALLET_NETWORK_PREFIX}n1`,
    })
    expect(watchKey(CHECKSUMMED, 'p1')).toEqual({ pk: `WALLET#${LOWER}`, sk: `${WATCH_PREFIX}p1` })
    expect(priceBucketKey('p1', 'hour', '2026-11-21T20')).toEqual({
      pk: 'PRICE#p1',
      sk: 'HOUR#2026-11-21T20',
    })
    expect(priceHistoryMarkerKey('p1', 'month')).toEqual({ pk: 'PRICE#p1', sk: 'MONTH#~' })
  })

  it('give the same key whatever the casing of an address, a hash or a username', () => {
    expect(walletKey(CHECKSUMMED)).toEqual(walletKey(LOWER))
    expect(tradeKey(CHECKSUMMED, 'id')).toEqual(tradeKey(LOWER, 'ID'))
    expect(accountKey('ALICE')).toEqual(accountKey('alice'))
    expect(tradeHashIndexKey(HASH, CHECKSUMMED, 'id')).toEqual(
      tradeHashIndexKey(HASH.toLowerCase(), LOWER, 'id'),
    )
  })

  it("put every trade of a wallet between its two counters, in the order of the trades' ids", () => {
    const { head, tail } = tradeCounterKeys(CHECKSUMMED)
    const trades = [new Date('2026-01-01'), new Date('2026-06-01'), new Date('2026-12-31')].map(
      (at) => tradeKey(CHECKSUMMED, timeOrderedUuid(at)),
    )
    const sortKeys = [head, ...trades, tail].map(({ sk }) => sk)
    expect(trades.every(({ pk }) => pk === head.pk && pk === tail.pk)).toBe(true)
    expect([...sortKeys].sort()).toEqual(sortKeys)
  })

  it('close a price grain with its marker, after every bucket label of that grain', () => {
    const marker = priceHistoryMarkerKey('p1', 'day').sk
    const buckets = ['2026-01-01', '2026-11-21', '2099-12-31'].map(
      (label) => priceBucketKey('p1', 'day', label).sk,
    )
    expect(buckets.every((sk) => sk < marker)).toBe(true)
    expect(
      priceBucketKey('p1', 'hour', '2099-12-31T23').sk < priceHistoryMarkerKey('p1', 'hour').sk,
    ).toBe(true)
  })
})
