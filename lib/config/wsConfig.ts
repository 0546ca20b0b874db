import * as z from '../../schemas/zod'
import { memoize, parseEnv } from './readEnv'

const positiveInt = z.pipe(z.coerce.number(), z.int().check(z.positive()))

// DECISIONS §10.3: the WebSocket API's per-client limits and where its functions post.
const wsSchema = z.object({
  // The WebSocket API's management endpoint (`https://<api>.execute-api.<region>.amazonaws.com/<stage>`
  // deployed, serverless offline's websocket server locally); only the posting functions read it.
  WS_ENDPOINT: z.optional(z.url()),
  // Open connections of one wallet at a time.
  WS_MAX_CONNECTIONS: z._default(positiveInt, 10),
  // Subscriptions of one connection.
  WS_MAX_SUBSCRIPTIONS: z._default(positiveInt, 20),
  // Messages one connection may send per second (each one invokes a function).
  WS_MAX_MESSAGES_PER_SECOND: z._default(positiveInt, 5),
})

export const loadWsConfig = memoize(() => {
  const env = parseEnv(wsSchema)
  return {
    endpoint: env.WS_ENDPOINT,
    maxConnections: env.WS_MAX_CONNECTIONS,
    maxSubscriptions: env.WS_MAX_SUBSCRIPTIONS,
    maxMessagesPerSecond: env.WS_MAX_MESSAGES_PER_SECOND,
  }
})
