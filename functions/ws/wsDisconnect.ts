import middy from '@middy/core'
import { deleteConnection } from '../../lib/db/wsConnection'

export async function disconnect(event: { requestContext: { connectionId: string } }) {
  await deleteConnection(event.requestContext.connectionId)
  return { statusCode: 200 }
}

export const handler = middy(disconnect)
