import { defineWsRoute } from '../../lib/ws/defineWsRoute'
import { resume } from '../../lib/ws/subscriptions'
import { wsResumeSchema } from '../../schemas/ws'

export const handler = defineWsRoute({
  message: wsResumeSchema,
  run: ({ connection, message }) => resume(connection, message),
})
