import { defineWsRoute } from '../../lib/ws/defineWsRoute'
import { unsubscribe } from '../../lib/ws/subscriptions'
import { wsUnsubscribeSchema } from '../../schemas/ws'

export const handler = defineWsRoute({
  message: wsUnsubscribeSchema,
  run: ({ connection, message }) => unsubscribe(connection, message),
})
