import { TTL_ATTRIBUTE, tableDefinition } from '../db/tableSchema'

export const LOCAL_TABLE_NAME = 'wallet-backend-local'

export interface CreateTableOptions {
  /**
   * Keep the table's stream, as deployed: only the local stack's table, which feeds the WebSocket
   * fan-out. A test's own table leaves it out: DynamoDB Local writes each change to the stream
   * too, and a suite's worth of them slowed its writes past the SDK's timeout on a loaded run.
   */
  stream?: boolean
}

/** Creates the table (with its TTL) at a DynamoDB Local endpoint; an existing one is kept. */
export async function createTable(
  endpoint: string,
  tableName = LOCAL_TABLE_NAME,
  { stream = false }: CreateTableOptions = {},
): Promise<void> {
  // Loaded here, not with this module: npm start spawns DynamoDB Local before the SDK loads.
  const { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } =
    await import('@aws-sdk/client-dynamodb')
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // Bounded, so a database that stopped answering fails the start instead of hanging it.
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
  })
  try {
    const { StreamSpecification, ...withoutStream } = tableDefinition(tableName)
    await client.send(
      new CreateTableCommand(stream ? { ...withoutStream, StreamSpecification } : withoutStream),
    )
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    )
  } catch (error) {
    // A persisted database already has the table.
    if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error
  } finally {
    client.destroy()
  }
}
