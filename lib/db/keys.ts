// Every key of the single table, and the access patterns they serve.
//
// | access pattern                     | operation | key                                              |
// |------------------------------------|-----------|--------------------------------------------------|
// | list networks                      | Query     | pk = NETWORK                                     |
// | find a network by id               | Query     | pk = NETWORK (two items; matched on `id`)        |
// | know a wallet (created at 1st login)| UpdateItem| pk = WALLET#<address>, sk = WALLET (in the login transaction) |
// | issue a sign-in nonce (per client)| PutItem   | pk = NONCE#<address>#CLIENT#<client>, sk = ISSUED#<epoch ms>#<nonce> (TTL 5 min) |
// | a client's newest nonces          | Query     | pk = NONCE#<address>#CLIENT#<client>, sk >= ISSUED#<start of the oldest live second>, newest first, Limit 5 |
// | consume a nonce once               | TransactWrite | Put pk = NONCE#<address>, sk = USED#<nonce> (if absent; TTL) + the session and its family |
// | credential checks of a client      | UpdateItem| pk = ATTEMPTS#ACCOUNT#<lower name>#CLIENT#<client> or ATTEMPTS#WALLET#<address>#CLIENT#<client>, sk = WINDOW#<start> (ADD if < limit) |
// | password checks of a name, unknown devices | UpdateItem | pk = ATTEMPTS#ACCOUNT#<lower name>, sk = WINDOW#<start> (ADD if < 10) |
// | requests of a client in a window   | UpdateItem| pk = CLIENT#<budget>#<client>, sk = WINDOW#<start> (ADD weight if it fits) |
// | token family (refresh lineage)     | GetItem, TransactWrite | pk = FAMILY#<familyId>, sk = FAMILY (current session, revoked) |
// | get a session by id (guard)        | GetItem   | pk = SESSION#<sid>, sk = SESSION#<sid>           |
// | register an account (unique name)  | PutItem   | pk = USERNAME#<lower>, sk = ACCOUNT (if absent)  |
// | login: the account                 | GetItem   | pk = USERNAME#<lower>, sk = ACCOUNT              |
// | list the catalog (token list)      | Query     | pk = CATALOG                                     |
// | get a project by id                | GetItem   | pk = CATALOG, sk = PROJECT#<id>                  |
// | catalog tokens among addresses     | BatchGet  | pk = CATALOG, sk = PROJECT#<id of network and address> (client signing) |
// | first page of trades, with count   | Query     | pk = WALLET#<address>, sk <= TRADE#~ from the tail, or GetItem TRADE#~ + Query from TRADE#} |
// | a page of trades at any offset     | GetItem, Query | TRADE#~ (count, last position, holes), then sk BETWEEN TRADE#}<from> AND TRADE#}<to> |
// | number a trade (its position)      | TransactWrite | the trade + TRADE#}<position> + TRADE# + TRADE#~ (lastPosition = read value, so no two share one) + SENT_TO#<look> |
// | what a wallet sent to, by look     | UpdateItem (in the trade's transaction), BatchGet | pk = WALLET#<address>, sk = SENT_TO#<first and last 4 hex digits> (ADD addresses) |
// | number trades before positions (npm run trades:number, a command) | Scan, Query, TransactWrite | TRADE#~ without lastPosition; the wallet's TRADE# .. TRADE#~ |
// | get a trade of a wallet by id      | GetItem   | pk = WALLET#<address>, sk = TRADE#<id>           |
// | find a trade of a wallet by hash   | Query GSI1| gsi1pk = TXHASH#<hash>, gsi1sk begins_with WALLET#<address># |
// | list pending trades of a network   | Query GSI2| gsi2pk = PENDING#<network> (sparse: pending only) |
// | deposits recorded already          | BatchGet  | pk = DEPOSIT#<network>#<hash>, sk = LOG#<index>, NATIVE or TRACE#<path> (the markers) |
// | record a wallet's deposits once    | TransactWrite | up to 24 × (trade + TRADE#}<position> + journal entry + marker Put if absent) + TRADE# + TRADE#~ |
// | deposit indexer cursor (+ last hash)| GetItem, UpdateItem | pk = DEPOSIT_CURSOR, sk = NETWORK#<network> (moved only from the value read) |
// | wallets left behind by the indexer | Query, PutItem, DeleteItem | pk = DEPOSIT_LAG#<network>, sk = WALLET#<address> (written only as read) |
// | catalog tokens of a network        | Query     | pk = CATALOG, filtered on network (address, dustMinimum) |
// | deposits recorded from a block on  | Query     | pk = DEPOSIT_JOURNAL#<network>, sk >= BLOCK#<number> (for reorg roll-back) |
// | known wallets among addresses      | BatchGet  | pk = WALLET#<address>, sk = WALLET               |
// | every known wallet (indexer: recipient filters of a block too big to read whole) | Query GSI1 | gsi1pk = KNOWN_WALLET (the wallet item; sk = its address) |
// | claim an Idempotency-Key (swaps)   | PutItem   | pk = IDEMPOTENCY#<address>, sk = KEY#<sha256 of the key> (if absent) |
// | complete it with the trade         | TransactWrite | the trade's items + Update of the key (status completed, txId) |
// | attach networks to a wallet        | TransactWrite | Update pk = WALLET#<address>, sk = NETWORK#<networkId> + ConditionCheck NETWORK / NETWORK#<name> exists |
// | networks of a wallet (balance)     | Query     | pk = WALLET#<address>, sk begins_with NETWORK#   |
// | watch / unwatch a project          | TransactWrite | pk = WALLET#<address>, sk = WATCH#<projectId> (if absent / present) + ADD watchLists on PROJECT#<id> |
// | watchlist of a wallet              | Query, BatchGet | pk = WALLET#<address>, sk begins_with WATCH#; then the projects |
// | write a bucket's average           | UpdateItem| pk = PRICE#<projectId>, sk = HOUR#<yyyy-mm-ddThh> / DAY#<yyyy-mm-dd> / MONTH#<yyyy-mm> (if no longer one of its path); with minDepths, each pool's least sampled depth |
// | keep a pricing path                | UpdateItem| pk = PRICE#<projectId>, sk = PATH (with reviewedAt and the secret nextReviewAt) |
// | keep a boundary reading            | UpdateItem| pk = PRICE#<projectId>, sk = BOUNDARY#<yyyy-mm-ddThh> (TTL: until its buckets close) |
// | path, buckets and boundaries to fill | BatchGet | pk = PRICE#<projectId>: PATH, the buckets and the BOUNDARY# readings a fill needs |
// | price history of a window          | Query     | pk = PRICE#<projectId>, sk BETWEEN <GRAIN>#<window start> AND <GRAIN>#~ |
// | price-change references            | BatchGet  | pk = PRICE#<projectId>, the buckets 24 h and 7/30/60/90 days back |
// | dust floors: path prices           | BatchGet  | pk = PRICE#<projectId>, the last closed HOUR# (and the one before), DAY# |
// | project details (catalog + market) | GetItem   | pk = CATALOG, sk = PROJECT#<id> (market metrics on the same item) |
// | a token's EIP-2612 permit support (probed on chain once) | GetItem, PutItem | pk = PERMIT#<network>#<token>, sk = PERMIT (if absent) |
// | issue / consume a WebSocket ticket | PutItem, DeleteItem | pk = WS_TICKET#<sha256 of the ticket>, sk = TICKET (TTL 30 s; consumed by a conditional delete) |
// | a WebSocket connection             | PutItem, GetItem, DeleteItem | pk = WS_CONNECTION#<connectionId>, sk = CONNECTION (TTL 2 h) |
// | a connection's messages in a second| UpdateItem| pk = WS_CONNECTION#<connectionId>, sk = RATE#<epoch second> (ADD if < limit; TTL) |
// | a connection's subscriptions       | Query     | pk = WS_CONNECTION#<connectionId>, sk begins_with SUB# (limits, disconnect) |
// | live connections of a wallet       | Query     | pk = WS_WALLET#<address>, sk begins_with CONNECTION# (COUNT, filtered on openUntil) |
// | subscribers of a feed (fan-out)    | Query     | pk = WS_FEED#<feed>, sk begins_with SUB# (each with its last delivered sequence) |
// | subscribe / unsubscribe            | TransactWrite | pk = WS_CONNECTION#<id>, sk = SUB#<feed> + pk = WS_FEED#<feed>, sk = SUB#<id> |
// | deliver a feed's event once        | UpdateItem| pk = WS_FEED#<feed>, sk = SUB#<id> (SET delivered = n if delivered = n - 1) |
// | number a feed's event              | UpdateItem| pk = WS_FEED#<feed>, sk = SEQ (ADD last 1) |
// | a feed's events after a sequence   | PutItem, Query | pk = WS_FEED#<feed>, sk = EVENT#<15-digit sequence> (TTL 24 h; resume) |
//
// Trade ids are time-ordered UUIDs (v7), so TRADE#<id> sorts by creation time. The trades of a
// wallet sit between two counter items, TRADE# (head) and TRADE#~ (tail), both bumped in the
// transaction that records a trade. Each trade also has a page entry, TRADE#}<position> (a copy
// of the trade; '}' sorts after every id character and before '~'), numbered 1, 2, 3... per
// wallet in the order recorded; the tail keeps the last position and the positions of removed
// trades (holes, from reorganisations). A page at any offset is then a key range of `limit`
// entries (DECISIONS §8.2, "Pages cost the page"); the newest page is one Query from the tail.
// A project's price history has one marker per grain, <GRAIN>#~ (no TTL), written on import and
// sorting after every bucket: a window's Query returns its buckets and the marker, so one call
// answers both "which buckets" and "is this a known project" (no marker: 404).
// A project's id is derived from (network, lower-cased address), so a catalog import is an upsert.
// Addresses are lower-cased in keys so the key is the same whatever the checksum casing.

import { isIPv4 } from 'node:net'
import type { PriceGrain } from './priceGrains'

export interface TableKey {
  pk: string
  sk: string
}

export const NETWORK_PARTITION = 'NETWORK'

export function networkKey(network: string): TableKey {
  return { pk: NETWORK_PARTITION, sk: `NETWORK#${network}` }
}

export function sessionKey(sessionId: string): TableKey {
  return { pk: `SESSION#${sessionId}`, sk: `SESSION#${sessionId}` }
}

export const CATALOG_PARTITION = 'CATALOG'

export function projectKey(projectId: string): TableKey {
  return { pk: CATALOG_PARTITION, sk: `PROJECT#${projectId}` }
}

// Usernames are lower-cased in keys so `Alice` and `alice` are one name.
export function usernamePartition(username: string): string {
  return `USERNAME#${username.toLowerCase()}`
}

export function accountKey(username: string): TableKey {
  return { pk: usernamePartition(username), sk: 'ACCOUNT' }
}

/**
 * The client a source address stands for in per-client budgets (DECISIONS §9.4): an IPv4 address
 * itself; an IPv6 address its /64, one subscriber's network, whose 2^64 addresses a host picks
 * from freely (an IPv4-mapped one, its IPv4 address). Anything else, lower-cased.
 */
export function clientOf(sourceIp: string): string {
  const address = sourceIp.toLowerCase().replace(/%.*$/, '')
  // API Gateway gives a valid address: the shape tells the family (node:net's isIPv6 compiles a
  // pattern of some kilobytes at its first use, 2-3 ms of every cold start that meters a client).
  if (!IPV6_SHAPE.test(address)) return address
  const groups = ipv6Hextets(address)
  const mapped = groups.slice(0, 6).join(':') === '0:0:0:0:0:ffff'
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6).map((group) => parseInt(group, 16))
    return [high >> 8, high & 255, low >> 8, low & 255].join('.')
  }
  return `${groups.slice(0, 4).join(':')}::/64`
}

const IPV6_SHAPE = /^[0-9a-f:.]*:[0-9a-f:.]*$/

/** The eight hextets of a valid IPv6 address, without leading zeros ('::' and a dotted tail expanded). */
function ipv6Hextets(address: string): string[] {
  const [head = '', tail] = address.split('::')
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [group]
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
        })
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, ''))
}

/**
 * One window of the credential checks one client made for one account name or wallet address
 * (lower-cased): a client's failures delay that client only (DECISIONS §9.4).
 */
export function attemptWindowKey(
  kind: 'account' | 'wallet',
  subject: string,
  sourceIp: string,
  windowStart: number,
): TableKey {
  return {
    pk: `ATTEMPTS#${kind.toUpperCase()}#${subject.toLowerCase()}#CLIENT#${clientOf(sourceIp)}`,
    sk: `WINDOW#${windowStart}`,
  }
}

/** One window of a client's budget (requests to a route family, or the RPC calls they cost). */
export function clientWindowKey(budget: string, sourceIp: string, windowStart: number): TableKey {
  return { pk: `CLIENT#${budget}#${clientOf(sourceIp)}`, sk: `WINDOW#${windowStart}` }
}

/** Where the marks of an address's used nonces live (every nonce item's key starts NONCE#). */
export function noncePartition(address: string): string {
  return `NONCE#${address.toLowerCase()}`
}

/**
 * The nonces issued to one client for one address (DECISIONS §10.4): a login without `nonce`
 * tries only its own client's, so no other client's requests can push them out.
 */
export function clientNoncePartition(address: string, sourceIp: string): string {
  return `${noncePartition(address)}#CLIENT#${clientOf(sourceIp)}`
}

export const ISSUED_NONCE_PREFIX = 'ISSUED#'

/** Epoch milliseconds of the request, zero-padded, so a client's nonces sort in issue order. */
export function issuedNonceSortKey(requestedAtMs: number, nonce?: number): string {
  const issued = `${ISSUED_NONCE_PREFIX}${String(requestedAtMs).padStart(14, '0')}`
  return nonce === undefined ? issued : `${issued}#${nonce}`
}

/** A nonce issued to a client for an address, at the request's moment (TTL at its expiry). */
export function clientNonceKey(
  address: string,
  sourceIp: string,
  { nonce, requestedAt }: { nonce: number; requestedAt: Date },
): TableKey {
  return {
    pk: clientNoncePartition(address, sourceIp),
    sk: issuedNonceSortKey(requestedAt.getTime(), nonce),
  }
}

/** The mark of a nonce that signed in: put once, conditionally, so a replay fails. */
export function usedNonceKey(address: string, nonce: number): TableKey {
  return { pk: noncePartition(address), sk: `USED#${nonce}` }
}

/**
 * One window of the password checks of an account name from clients without a device token for
 * it (DECISIONS §10.4), whichever client made them; the per-client windows add `#CLIENT#`.
 */
export function usernameAttemptWindowKey(username: string, windowStart: number): TableKey {
  return { pk: `ATTEMPTS#ACCOUNT#${username.toLowerCase()}`, sk: `WINDOW#${windowStart}` }
}

// A token family: the sessions descended from one login by refresh; it points at its current one.
export function familyKey(familyId: string): TableKey {
  return { pk: `FAMILY#${familyId}`, sk: 'FAMILY' }
}

export function walletKey(address: string): TableKey {
  return { pk: `WALLET#${address.toLowerCase()}`, sk: 'WALLET' }
}

export const KNOWN_WALLET_INDEX_PARTITION = 'KNOWN_WALLET'

/** On the wallet item, so GSI1 lists every known wallet (the indexer's recipient filters). */
export function knownWalletIndexKey(address: string) {
  return { gsi1pk: KNOWN_WALLET_INDEX_PARTITION, gsi1sk: address.toLowerCase() }
}

// Trades live in their wallet's partition.
export function tradeKey(wallet: string, tradeId: string): TableKey {
  return { pk: `WALLET#${wallet.toLowerCase()}`, sk: `TRADE#${tradeId.toLowerCase()}` }
}

/** The counters at both ends of a wallet's trades ('~' sorts after every id character). */
export function tradeCounterKeys(wallet: string): { head: TableKey; tail: TableKey } {
  const pk = `WALLET#${wallet.toLowerCase()}`
  return { head: { pk, sk: 'TRADE#' }, tail: { pk, sk: 'TRADE#~' } }
}

export const TRADE_POSITION_PREFIX = 'TRADE#}'

/** Zero-padded, so positions sort by number; 12 digits are a trillion trades. */
export function tradePositionKey(wallet: string, position: number): TableKey {
  return {
    pk: `WALLET#${wallet.toLowerCase()}`,
    sk: `${TRADE_POSITION_PREFIX}${String(position).padStart(12, '0')}`,
  }
}

export function tradeHashIndexKey(hash: string, wallet: string, tradeId: string) {
  return {
    gsi1pk: `TXHASH#${hash.toLowerCase()}`,
    gsi1sk: `WALLET#${wallet.toLowerCase()}#TRADE#${tradeId.toLowerCase()}`,
  }
}

/** Only pending trades carry these attributes, so the index holds exactly the pending ones. */
export function pendingTradeIndexKey(network: string, tradeId: string) {
  return { gsi2pk: `PENDING#${network}`, gsi2sk: `TRADE#${tradeId.toLowerCase()}` }
}

/**
 * Where in its transaction a deposit is: an ERC-20 log's index, the transaction's own value
 * ('native'), or an internal call's trace address ('trace:0.1'). One marker per deposit.
 */
export type DepositPlace = number | 'native' | `trace:${string}`

function depositPlaceKey(place: DepositPlace): string {
  if (place === 'native') return 'NATIVE'
  if (typeof place === 'number') return `LOG#${place}`
  return `TRACE#${place.slice('trace:'.length)}`
}

export function depositMarkerKey(network: string, hash: string, place: DepositPlace): TableKey {
  return { pk: `DEPOSIT#${network}#${hash.toLowerCase()}`, sk: depositPlaceKey(place) }
}

/** A recorded deposit by block, so a reorganisation can find and remove the orphaned ones. */
export function depositJournalKey(
  network: string,
  blockNumber: bigint,
  hash: string,
  place: DepositPlace,
): TableKey {
  return {
    pk: depositJournalPartition(network),
    sk: `${depositJournalBlockPrefix(blockNumber)}#${hash.toLowerCase()}#${depositPlaceKey(place)}`,
  }
}

export function depositJournalPartition(network: string): string {
  return `DEPOSIT_JOURNAL#${network}`
}

/** Zero-padded, so blocks sort by number. */
export function depositJournalBlockPrefix(blockNumber: bigint): string {
  return `BLOCK#${String(blockNumber).padStart(15, '0')}`
}

/**
 * Whether a token implements EIP-2612 `permit`, and its EIP-712 domain, as probed on chain
 * (DECISIONS §10.2): by address, never by symbol.
 */
export function permitSupportKey(network: string, token: string): TableKey {
  return { pk: `PERMIT#${network}#${token.toLowerCase()}`, sk: 'PERMIT' }
}

export function depositCursorKey(network: string): TableKey {
  return { pk: 'DEPOSIT_CURSOR', sk: `NETWORK#${network}` }
}

/** Where a wallet's deposits wait beyond its fair share of the indexer's runs, per network. */
export function depositLagPartition(network: string): string {
  return `DEPOSIT_LAG#${network}`
}

export function depositLagKey(network: string, wallet: string): TableKey {
  return { pk: depositLagPartition(network), sk: `WALLET#${wallet.toLowerCase()}` }
}

/**
 * The addresses a wallet has sent to that look alike (the same first and last four hex digits,
 * `look`: lib/db/counterparties.ts), in the wallet's partition.
 */
export function sentToKey(wallet: string, look: string): TableKey {
  return { pk: `WALLET#${wallet.toLowerCase()}`, sk: `SENT_TO#${look}` }
}

// Idempotency-Keys are scoped to the wallet; the client's key is hashed so any visible ASCII fits.
export function idempotencyKey(wallet: string, keyHash: string): TableKey {
  return { pk: `IDEMPOTENCY#${wallet.toLowerCase()}`, sk: `KEY#${keyHash}` }
}

// Networks and watched projects of a wallet live in the wallet's partition.
export function walletNetworkKey(wallet: string, networkId: string): TableKey {
  return { pk: `WALLET#${wallet.toLowerCase()}`, sk: `NETWORK#${networkId}` }
}

export const WALLET_NETWORK_PREFIX = 'NETWORK#'

export function watchKey(wallet: string, projectId: string): TableKey {
  return { pk: `WALLET#${wallet.toLowerCase()}`, sk: `WATCH#${projectId}` }
}

export const WATCH_PREFIX = 'WATCH#'

export function pricePartition(projectId: string): string {
  return `PRICE#${projectId}`
}

/** A bucket of one grain; `label` is its start, `2026-11-21T20`, `2026-11-21` or `2026-11`. */
export function priceBucketKey(projectId: string, grain: PriceGrain, label: string): TableKey {
  return { pk: pricePartition(projectId), sk: `${grain.toUpperCase()}#${label}` }
}

/** Accumulators read at a boundary (an hour start, `2026-11-21T20`); BOUNDARY# sorts before DAY#. */
export function priceBoundaryKey(projectId: string, label: string): TableKey {
  return { pk: pricePartition(projectId), sk: `BOUNDARY#${label}` }
}

/** The pools a project's price history is read from. */
export function pricingPathKey(projectId: string): TableKey {
  return { pk: pricePartition(projectId), sk: 'PATH' }
}

/** '~' sorts after every digit, so the marker closes the grain's range of buckets. */
export function priceHistoryMarkerKey(projectId: string, grain: PriceGrain): TableKey {
  return priceBucketKey(projectId, grain, '~')
}

// The WebSocket API's keys (the WS_ rows of the table above) are built in lib/db/wsKeys.ts.
