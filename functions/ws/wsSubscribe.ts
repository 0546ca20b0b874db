import { defineWsRoute } from '../../lib/ws/defineWsRoute'
import { subscribe } from '../../lib/ws/subscriptions'
import { wsSubscribeSchema } from '../../schemas/ws'

export const handler = defineWsRoute({
  message: wsSubscribeSchema,
  run: ({ connection, message }) => subscribe(connection, message),
})
