import { loadWsConfig } from '../config/wsConfig'
import {
  type Connection,
  deleteSubscription,
  listConnectionFeeds,
  putSubscription,
} from '../db/wsConnection'
import { listWatchedProjectIds } from '../db/watchlist'
import { eventsAfter, lastSequence } from '../db/wsFeed'
import { BadRequest, Forbidden, NotFound, TooManyRequests } from '../errors'
import { catchUp } from './deliver'
import { pricesFeed } from './priceFeed'
import { tradesFeed } from './tradeFeed'

// subscribe / unsubscribe / resume (DECISIONS §10.3): what each message does to the connection's
// subscriptions, free of the WebSocket event.

/** A message as its schema parsed it (schemas/ws.ts). */
export interface TopicMessage {
  topic: 'trades' | 'prices'
  wallet?: string
}

export interface ResumeMessage extends TopicMessage {
  sequence: number
  projectId?: string
}

/** The session's own wallet: a message naming another is refused. */
function ownWallet(connection: Connection, message: TopicMessage): string {
  const wallet = message.wallet ?? connection.wallet
  if (wallet.toLowerCase() !== connection.wallet.toLowerCase()) {
    throw new Forbidden("a connection follows its own wallet's trades and watchlist only")
  }
  return wallet
}

/** The feeds a subscription covers: the wallet's trades, or each project it watches now. */
async function feedsOf(connection: Connection, message: TopicMessage): Promise<string[]> {
  const wallet = ownWallet(connection, message)
  if (message.topic === 'trades') return [tradesFeed(wallet)]
  return (await listWatchedProjectIds(wallet)).map(pricesFeed)
}

async function checkRoom(connection: Connection, feeds: readonly string[]): Promise<void> {
  const { maxSubscriptions } = loadWsConfig()
  const held = await listConnectionFeeds(connection.connectionId)
  const added = feeds.filter((feed) => !held.includes(feed))
  if (held.length + added.length > maxSubscriptions) {
    throw new TooManyRequests(
      `a connection may hold ${maxSubscriptions} subscriptions (a watched project counts one); unsubscribe first`,
      1,
    )
  }
}

const projectOf = (feed: string) => feed.slice(feed.indexOf('#') + 1)

/**
 * Follows a topic from now on; answers the last sequence so far (the next pushed is above it):
 * on `prices`, one per watched project.
 */
export async function subscribe(connection: Connection, message: TopicMessage) {
  const feeds = await feedsOf(connection, message)
  await checkRoom(connection, feeds)
  const sequences = await Promise.all(
    feeds.map(async (feed) => {
      const sequence = await lastSequence(feed)
      await putSubscription(connection, feed, sequence)
      return [projectOf(feed), sequence] as const
    }),
  )
  if (message.topic === 'trades') {
    return { type: 'subscribed', topic: message.topic, sequence: sequences[0]?.[1] ?? 0 }
  }
  return { type: 'subscribed', topic: message.topic, sequences: Object.fromEntries(sequences) }
}

export async function unsubscribe(connection: Connection, message: TopicMessage) {
  const wallet = ownWallet(connection, message)
  const feeds =
    message.topic === 'trades'
      ? [tradesFeed(wallet)]
      : (await listConnectionFeeds(connection.connectionId)).filter((feed) =>
          feed.startsWith(pricesFeed('')),
        )
  for (const feed of feeds) await deleteSubscription(connection.connectionId, feed)
  return { type: 'unsubscribed', topic: message.topic }
}

/** The one feed a resume names: the wallet's trades, or one watched project's prices. */
async function resumedFeed(connection: Connection, message: ResumeMessage): Promise<string> {
  const wallet = ownWallet(connection, message)
  if (message.topic === 'trades') return tradesFeed(wallet)
  if (!message.projectId) throw new BadRequest('resuming prices names its projectId')
  if (!(await listWatchedProjectIds(wallet)).includes(message.projectId)) {
    throw new Forbidden('the wallet does not watch this project')
  }
  return pricesFeed(message.projectId)
}

/**
 * Follows a feed again from the client's last sequence: every event after it (kept 24 h) is sent
 * first, once each and in order, then the live ones. A sequence the feed never reached, or one
 * whose successors are older than 24 h, is refused.
 */
export async function resume(connection: Connection, message: ResumeMessage) {
  const feed = await resumedFeed(connection, message)
  await checkRoom(connection, [feed])
  const last = await lastSequence(feed)
  if (message.sequence > last) {
    throw new BadRequest(`sequence ${message.sequence} is past the topic's last, ${last}`)
  }
  if (message.sequence < last) {
    const [next] = await eventsAfter(feed, message.sequence, { limit: 1 })
    if (next?.sequence !== message.sequence + 1) {
      throw new NotFound(
        `the events after sequence ${message.sequence} are older than 24 h; subscribe afresh`,
      )
    }
  }
  await putSubscription(connection, feed, message.sequence)
  const { sent } = await catchUp(feed, {
    connectionId: connection.connectionId,
    delivered: message.sequence,
  })
  return {
    type: 'resumed',
    topic: message.topic,
    ...(message.projectId && { projectId: message.projectId }),
    sequence: message.sequence,
    replayed: sent,
  }
}
