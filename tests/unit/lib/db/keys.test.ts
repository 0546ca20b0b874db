import fc from 'fast-check'
import { BlockList } from 'node:net'
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
  clientOf,
  clientNonceKey,
  usedNonceKey,
  usernameAttemptWindowKey,
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
    expect(attemptWindowKey('account', 'Alice', '192.0.2.1', 900)).toEqual({
      pk: 'ATTEMPTS#ACCOUNT#alice#CLIENT#192.0.2.1',
      sk: 'WINDOW#900',
    })
    expect(attemptWindowKey('wallet', CHECKSUMMED, '2001:DB8::1', 0)).toEqual({
      pk: `ATTEMPTS#WALLET#${LOWER}#CLIENT#2001:db8:0:0::/64`,
      sk: 'WINDOW#0',
    })
    expect(clientWindowKey('login', '2001:DB8::1', 60)).toEqual({
      pk: 'CLIENT#login#2001:db8:0:0::/64',
      sk: 'WINDOW#60',
    })
    expect(
      clientNonceKey(CHECKSUMMED, '2001:DB8::1', {
        nonce: 4_503_599_627_370_497,
        requestedAt: new Date(1_800_000_000_500),
      }),
    ).toEqual({
      pk: `NONCE#${LOWER}#CLIENT#2001:db8:0:0::/64`,
      sk: 'ISSUED#01800000000500#4503599627370497',
    })
    expect(usedNonceKey(CHECKSUMMED, 4_503_599_627_370_497)).toEqual({
      pk: `NONCE#${LOWER}`,
      sk: 'USED#4503599627370497',
    })
    expect(usernameAttemptWindowKey('Alice', 900)).toEqual({
      pk: 'ATTEMPTS#ACCOUNT#alice',
      sk: 'WINDOW#900',
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

describe('clientOf', () => {
  it('keeps an IPv4 address, and groups an IPv6 address by its /64 in every spelling', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7')
    // One host's many addresses, however written, are one client.
    for (const spelling of [
      '2001:db8:85a3:8d3::1',
      '2001:DB8:85A3:08D3:FFFF:FFFF:FFFF:FFFF',
      '2001:0db8:85a3:08d3:0000:0000:0000:0001',
      '2001:db8:85a3:8d3:1:2:3:4%eth0',
    ]) {
      expect(clientOf(spelling)).toBe('2001:db8:85a3:8d3::/64')
    }
    expect(clientOf('2001:db8:85a3:8d4::1')).toBe('2001:db8:85a3:8d4::/64')
    expect(clientOf('::1')).toBe('0:0:0:0::/64')
    expect(clientOf('fe80::')).toBe('fe80:0:0:0::/64')
    expect(clientOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
    // An IPv4 client seen through an IPv6 socket is that IPv4 client.
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientOf('::FFFF:cb00:7107')).toBe('203.0.113.7')
    expect(clientOf('unknown')).toBe('unknown')
  })

  it("puts two IPv6 addresses in one client exactly when node:net's BlockList puts them in one /64, whatever the spelling", () => {
    const hextet = fc.integer({ min: 0, max: 0xffff })
    const address = fc.array(hextet, { minLength: 8, maxLength: 8 })
    // Leading zeros, case and '::' for the longest run of zero hextets, each chosen at random.
    const spell = (groups: number[], padded: boolean, upper: boolean, compress: boolean) => {
      const text = groups.map((group) => group.toString(16).padStart(padded ? 4 : 0, '0'))
      let spelled = text.join(':')
      if (compress) {
        let best = { start: -1, length: 0 }
        for (let start = 0; start < 8; start++) {
          let length = 0
          while (start + length < 8 && groups[start + length] === 0) length++
          if (length > best.length) best = { start, length }
        }
        if (best.length > 1) {
          spelled = `${text.slice(0, best.start).join(':')}::${text.slice(best.start + best.length).join(':')}`
        }
      }
      return upper ? spelled.toUpperCase() : spelled
    }
    // Not IPv4-mapped (::ffff:0:0/96 is an IPv4 client).
    const notMapped = (groups: number[]) => groups.slice(0, 6).join(':') !== '0:0:0:0:0:65535'
    fc.assert(
      fc.property(
        address,
        address,
        fc.boolean(),
        fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
        fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
        (first, other, samePrefix, [p1, u1, c1], [p2, u2, c2]) => {
          const second = samePrefix ? [...first.slice(0, 4), ...other.slice(4)] : other
          fc.pre(notMapped(first) && notMapped(second))
          const a = spell(first, p1, u1, c1)
          const b = spell(second, p2, u2, c2)
          const subnet = new BlockList()
          subnet.addSubnet(a, 64, 'ipv6')

          expect(clientOf(a) === clientOf(b)).toBe(subnet.check(b, 'ipv6'))
          expect(clientOf(a)).toMatch(/^([0-9a-f]{1,4}:){4}:\/64$/)
        },
      ),
      { numRuns: 2000, seed: 64 },
    )
  })
})
