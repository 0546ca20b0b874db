import { deleteConnection } from '../db/wsConnection'
import { claimDelivery, eventsAfter, type FeedEvent, type FeedSubscriber } from '../db/wsFeed'
import { postToConnection } from '../aws/connections'

// Delivery of a feed's events to one subscriber, shared by the fan-out and `resume`: each event
// is claimed (the subscriber's mark moved from n - 1 to n, conditionally) before it is posted, so
// whoever delivers, each subscription gets each event once and in order, none skipped.

export type DeliveryOutcome = 'delivered' | 'gone'

/**
 * Sends the subscriber every event of the feed after its mark. `latest` is the event the caller
 * holds already: when it is the very next one (the common case) no Query is made.
 */
export async function catchUp(
  feed: string,
  subscriber: FeedSubscriber,
  latest?: FeedEvent,
): Promise<{ outcome: DeliveryOutcome; sent: number }> {
  if (latest && latest.sequence === subscriber.delivered + 1) {
    // The newest event, next for this subscriber: one claim and one post, no read.
    if (!(await claimDelivery(feed, subscriber.connectionId, latest.sequence))) {
      return { outcome: 'delivered', sent: 0 }
    }
    return send(subscriber.connectionId, latest, 0)
  }
  let mark = subscriber.delivered
  let sent = 0
  for (;;) {
    const pending = await eventsAfter(feed, mark)
    if (pending.length === 0) return { outcome: 'delivered', sent }
    for (const event of pending) {
      // Another delivery claimed it (or the mark moved past it): that one sends the rest.
      if (event.sequence !== mark + 1) return { outcome: 'delivered', sent }
      if (!(await claimDelivery(feed, subscriber.connectionId, event.sequence))) {
        return { outcome: 'delivered', sent }
      }
      const result = await send(subscriber.connectionId, event, sent)
      if (result.outcome === 'gone') return result
      mark = event.sequence
      sent = result.sent
    }
  }
}

async function send(connectionId: string, event: FeedEvent, sent: number) {
  if ((await postToConnection(connectionId, event.message)) === 'gone') {
    // API Gateway says the connection is gone (410): everything of it is forgotten.
    await deleteConnection(connectionId)
    return { outcome: 'gone' as const, sent }
  }
  return { outcome: 'delivered' as const, sent: sent + 1 }
}
