import type { WsResume, WsSubscribe, WsUnsubscribe } from '../../schemas/ws'
import { loadWsConfig } from '../config/wsConfig'
import {
  type Connection,
  deleteSubscription,
  listConnectionFeeds,
  putSubscription,
} from '../db/wsConnection'
import { eventsAfter, lastSequence } from '../db/wsFeed'
import { BadRequest, Forbidden, NotFound, TooManyRequests } from '../errors'
import { catchUp } from './deliver'
import { tradesFeed } from './tradeFeed'

// subscribe / unsubscribe / resume (DECISIONS §10.3): what each message does to the connection's
// subscriptions, free of the WebSocket event.

type TopicMessage = WsSubscribe | WsUnsubscribe | WsResume

/** The feed a message names: the trades of the session's own wallet, no other. */
function feedOf(connection: Connection, message: TopicMessage): string {
  const wallet = message.wallet ?? connection.wallet
  if (wallet.toLowerCase() !== connection.wallet.toLowerCase()) {
    throw new Forbidden("a connection follows its own wallet's trades only")
  }
  return tradesFeed(wallet)
}

async function checkRoom(connection: Connection, feed: string): Promise<void> {
  const { maxSubscriptions } = loadWsConfig()
  const feeds = await listConnectionFeeds(connection.connectionId)
  if (!feeds.includes(feed) && feeds.length >= maxSubscriptions) {
    throw new TooManyRequests(
      `a connection may hold ${maxSubscriptions} subscriptions; unsubscribe from one first`,
      1,
    )
  }
}

/** Follows a feed from now on; answers the last sequence so far (the next pushed is above it). */
export async function subscribe(connection: Connection, message: WsSubscribe) {
  const feed = feedOf(connection, message)
  await checkRoom(connection, feed)
  const sequence = await lastSequence(feed)
  await putSubscription(connection, feed, sequence)
  return { type: 'subscribed', topic: message.topic, sequence }
}

export async function unsubscribe(connection: Connection, message: WsUnsubscribe) {
  const feed = feedOf(connection, message)
  await deleteSubscription(connection.connectionId, feed)
  return { type: 'unsubscribed', topic: message.topic }
}

/**
 * Follows a feed again from the client's last sequence: every event after it (kept 24 h) is sent
 * first, once each and in order, then the live ones. A sequence the feed never reached, or one
 * whose successors are older than 24 h, is refused.
 */
export async function resume(connection: Connection, message: WsResume) {
  const feed = feedOf(connection, message)
  await checkRoom(connection, feed)
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
  return { type: 'resumed', topic: message.topic, sequence: message.sequence, replayed: sent }
}
