import { itemOfImage, type StreamImage } from '../aws/streamImage'
import { appendEvent, listSubscribers } from '../db/wsFeed'
import { mapConcurrently } from '../mapConcurrently'
import { catchUp } from './deliver'
import { priceEvents } from './priceFeed'
import { tradeEvents } from './tradeFeed'

// The fan-out (DECISIONS §10.3): each change of the table's stream that a client can follow
// (the filter patterns in serverless.yml let only trade and project items through; the handler checks again,
// as the local stream poller passes every record) becomes numbered events of its feed, each
// posted to that feed's subscribers only: one Query of the feed's subscribers, then a claim and a
// post per subscriber. Nothing is read per connection that does not follow the feed.

export interface StreamRecord {
  eventName?: string
  dynamodb?: { OldImage?: StreamImage; NewImage?: StreamImage }
}

export interface FanOutResult {
  events: number
  posted: number
  gone: number
}

/** Posts to this many subscribers of an event at once. */
const POST_CONCURRENCY = 16

/** One record's events, in the stream's order: records of one feed are handled in sequence. */
export async function fanOut(records: readonly StreamRecord[]): Promise<FanOutResult> {
  const result: FanOutResult = { events: 0, posted: 0, gone: 0 }
  for (const record of records) {
    const before = itemOfImage(record.dynamodb?.OldImage)
    const after = itemOfImage(record.dynamodb?.NewImage)
    const events = [...tradeEvents(before, after), ...priceEvents(before, after)]
    for (const { feed, event } of events) {
      const appended = await appendEvent(feed, (sequence) =>
        JSON.stringify({ type: 'event', ...event, sequence }),
      )
      result.events += 1
      const subscribers = await listSubscribers(feed)
      const outcomes = await mapConcurrently(subscribers, POST_CONCURRENCY, (subscriber) =>
        catchUp(feed, subscriber, appended),
      )
      for (const outcome of outcomes) {
        result.posted += outcome.sent
        if (outcome.outcome === 'gone') result.gone += 1
      }
    }
  }
  return result
}
