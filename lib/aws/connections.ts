import {
  ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi'
import { loadCoreConfig } from '../config'
import { loadWsConfig } from '../config/wsConfig'

// Posting to a WebSocket connection through the API's management endpoint (API Gateway deployed,
// serverless offline's websocket server locally): the client is built once per container.

/** API Gateway's frame limit is 128 KB; a message is refused before it is posted over it. */
export const MAX_MESSAGE_BYTES = 128 * 1024

let client: ApiGatewayManagementApiClient | undefined

function managementClient(): ApiGatewayManagementApiClient {
  if (client) return client
  const { endpoint } = loadWsConfig()
  if (!endpoint) throw new Error('WS_ENDPOINT is not set: this function cannot post')
  const core = loadCoreConfig()
  client = new ApiGatewayManagementApiClient({
    endpoint,
    region: core.region,
    // serverless offline checks no signature; these keep the SDK from searching for credentials.
    ...(core.dynamoEndpoint && { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  })
  return client
}

/** Sends one message; 'gone' when the connection no longer exists (410), to be forgotten. */
export async function postToConnection(
  connectionId: string,
  message: string,
): Promise<'sent' | 'gone'> {
  if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES) {
    throw new Error(`a message of ${Buffer.byteLength(message)} bytes is over the frame limit`)
  }
  try {
    await managementClient().send(
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(message) }),
    )
    return 'sent'
  } catch (error) {
    if (
      error instanceof GoneException ||
      (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410
    ) {
      return 'gone'
    }
    throw error
  }
}
