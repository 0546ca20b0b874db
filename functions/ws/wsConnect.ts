import middy from '@middy/core'
import { openConnection } from '../../lib/ws/openConnection'
import { wsConnectQuerySchema } from '../../schemas/ws'

interface ConnectEvent {
  requestContext: { connectionId: string }
  queryStringParameters?: Record<string, string | undefined>
}

// No token in a URL (DECISIONS §10.3): the query carries a single-use ticket only.
export async function connect(event: ConnectEvent) {
  const query = wsConnectQuerySchema.safeParse(event.queryStringParameters ?? {})
  const statusCode = query.success
    ? await openConnection(event.requestContext.connectionId, query.data.ticket)
    : 401
  return { statusCode }
}

export const handler = middy(connect)
