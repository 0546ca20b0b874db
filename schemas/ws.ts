import { addressString, uuidString } from './formats'
import * as z from './zod'

// The WebSocket API's messages (DECISIONS §10.3; docs/websocket.md): what a client sends, routed
// by `action`, and what it gets back.

export const wsTopicSchema = z.enum(['trades', 'prices'])
export type WsTopic = z.infer<typeof wsTopicSchema>

// A ticket is 32 random bytes, base64url.
const ticketString = z
  .string()
  .check(z.maxLength(43), z.regex(/^[A-Za-z0-9_-]{43}$/, 'not a ticket'))

export const wsConnectQuerySchema = z.object({ ticket: ticketString })

export const wsTicketResultSchema = z.object({ ticket: ticketString })
export type WsTicketResult = z.infer<typeof wsTicketResultSchema>

const topicFields = {
  topic: wsTopicSchema,
  // The trades of this wallet: only the session's own (another is refused).
  wallet: z.optional(addressString),
}

export const wsSubscribeSchema = z.strictObject({
  action: z.literal('subscribe'),
  ...topicFields,
})
export type WsSubscribe = z.infer<typeof wsSubscribeSchema>

export const wsUnsubscribeSchema = z.strictObject({
  action: z.literal('unsubscribe'),
  ...topicFields,
})
export type WsUnsubscribe = z.infer<typeof wsUnsubscribeSchema>

export const wsResumeSchema = z.strictObject({
  action: z.literal('resume'),
  ...topicFields,
  // On `prices`, the project whose feed resumes (each watched project is a feed of its own).
  projectId: z.optional(uuidString),
  // The last sequence the client received: it is sent every one after it.
  sequence: z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)),
})
export type WsResume = z.infer<typeof wsResumeSchema>

/** Pushed on the `trades` topic: one step of a trade's life, or a deposit as indexed. */
export const wsTradeEventSchema = z.object({
  type: z.literal('event'),
  topic: z.literal('trades'),
  sequence: z.int(),
  event: z.enum(['submitted', 'included', 'confirmed', 'failed', 'reorged', 'deposit']),
  hash: z.string(),
  network: z.string(),
  tradeId: z.string(),
  tradeType: z.string(),
  wallet: z.string(),
  blockNumber: z.optional(z.number()),
})
export type WsTradeEvent = z.infer<typeof wsTradeEventSchema>

/** Pushed on the `prices` topic: a watched project's new price point as the sampler writes it. */
export const wsPriceEventSchema = z.object({
  type: z.literal('event'),
  topic: z.literal('prices'),
  sequence: z.int(),
  projectId: z.string(),
  /** USD per whole token, a decimal string. */
  price: z.string(),
  at: z.string(),
})
export type WsPriceEvent = z.infer<typeof wsPriceEventSchema>
