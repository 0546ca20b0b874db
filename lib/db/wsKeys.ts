import type { TableKey } from './keys'

// The WebSocket API (DECISIONS §10.3). A feed is what one subscription follows: `trades#<wallet>`
// (lower-cased) or `prices#<projectId>`; its events are numbered 1, 2, 3... as the fan-out writes
// them, and each subscriber keeps the last number it was sent.

/** A ticket is stored by its hash only: the table never holds a usable ticket. */
export function wsTicketKey(ticketHash: string): TableKey {
  return { pk: `WS_TICKET#${ticketHash}`, sk: 'TICKET' }
}

export function wsConnectionPartition(connectionId: string): string {
  return `WS_CONNECTION#${connectionId}`
}

export function wsConnectionKey(connectionId: string): TableKey {
  return { pk: wsConnectionPartition(connectionId), sk: 'CONNECTION' }
}

export function wsRateKey(connectionId: string, epochSecond: number): TableKey {
  return { pk: wsConnectionPartition(connectionId), sk: `RATE#${epochSecond}` }
}

export const WS_SUBSCRIPTION_PREFIX = 'SUB#'

/** The connection's side of a subscription (its feed in the sort key). */
export function wsConnectionSubscriptionKey(connectionId: string, feed: string): TableKey {
  return { pk: wsConnectionPartition(connectionId), sk: `${WS_SUBSCRIPTION_PREFIX}${feed}` }
}

export function wsWalletPartition(wallet: string): string {
  return `WS_WALLET#${wallet.toLowerCase()}`
}

export const WS_WALLET_CONNECTION_PREFIX = 'CONNECTION#'

export function wsWalletConnectionKey(wallet: string, connectionId: string): TableKey {
  return { pk: wsWalletPartition(wallet), sk: `${WS_WALLET_CONNECTION_PREFIX}${connectionId}` }
}

export function wsFeedPartition(feed: string): string {
  return `WS_FEED#${feed}`
}

/** The feed's side of a subscription: what the fan-out queries (O(its subscribers)). */
export function wsFeedSubscriberKey(feed: string, connectionId: string): TableKey {
  return { pk: wsFeedPartition(feed), sk: `${WS_SUBSCRIPTION_PREFIX}${connectionId}` }
}

export function wsFeedCounterKey(feed: string): TableKey {
  return { pk: wsFeedPartition(feed), sk: 'SEQ' }
}

export const WS_EVENT_PREFIX = 'EVENT#'

/** Zero-padded, so a feed's events sort by sequence. */
export function wsFeedEventKey(feed: string, sequence: number): TableKey {
  return {
    pk: wsFeedPartition(feed),
    sk: `${WS_EVENT_PREFIX}${String(sequence).padStart(15, '0')}`,
  }
}
