// The table's stream, locally (DECISIONS §10.3): DynamoDB Local keeps a stream when the table
// asks for one (lib/db/tableSchema.ts), and this poller reads it through the Streams API and hands
// each batch of records to the fan-out function as Lambda's event source mapping would, through
// serverless offline's Lambda invoke endpoint, so the function runs as deployed (its bundle, its
// environment). Plain JSON over fetch: DynamoDB Local serves the Streams API on its own port,
// checks no signature, and the SDK's streams client (3.1141.0, the newest) would bring a second
// copy of the SDK's core beside the table client's 3.1162.0. Records are filtered as the filter
// patterns in serverless.yml filter them (trade and project items only).

export interface StreamPoller {
  /** Batches handed to the fan-out so far (for the ready line and the bench). */
  batches(): number
  stop(): Promise<void>
}

export interface StartStreamPollerOptions {
  dynamoEndpoint: string
  tableName: string
  /** serverless offline's Lambda invoke port, and the fan-out's deployed function name. */
  lambdaPort: number
  functionName: string
  /** Between two reads of a shard with nothing new; 100 ms unless given. */
  idleMs?: number
}

interface StreamRecord {
  eventName?: string
  dynamodb?: {
    NewImage?: { type?: { S?: string } }
    OldImage?: { type?: { S?: string } }
  }
}

// Any credentials do; the header must only be well-formed.
const AUTHORIZATION =
  'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0'

async function call<Result>(endpoint: string, target: string, body: unknown): Promise<Result> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': target,
      authorization: AUTHORIZATION,
    },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${target} answered ${response.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as Result
}

/** As the filter patterns in serverless.yml: a trade changed, or a project (its price). */
export function isFannedOut(record: StreamRecord): boolean {
  const { NewImage, OldImage } = record.dynamodb ?? {}
  return (
    NewImage?.type?.S === 'Trade' ||
    OldImage?.type?.S === 'Trade' ||
    NewImage?.type?.S === 'Project'
  )
}

async function streamArnOf(endpoint: string, tableName: string): Promise<string> {
  const { Table } = await call<{ Table: { LatestStreamArn?: string } }>(
    endpoint,
    'DynamoDB_20120810.DescribeTable',
    { TableName: tableName },
  )
  if (!Table.LatestStreamArn) throw new Error(`${tableName} has no stream`)
  return Table.LatestStreamArn
}

export async function startStreamPoller(options: StartStreamPollerOptions): Promise<StreamPoller> {
  const { dynamoEndpoint: endpoint } = options
  const streamArn = await streamArnOf(endpoint, options.tableName)
  const streams = 'DynamoDBStreams_20120810'
  const iterators = new Map<string, string | null>()
  let stopped = false
  let batches = 0

  const discoverShards = async (first: boolean) => {
    const { StreamDescription } = await call<{
      StreamDescription: { Shards: Array<{ ShardId: string }> }
    }>(endpoint, `${streams}.DescribeStream`, { StreamArn: streamArn })
    for (const { ShardId } of StreamDescription.Shards) {
      if (iterators.has(ShardId)) continue
      // Shards open at the start: from now on (a persisted table's past is not replayed); any
      // shard after that from its start.
      const { ShardIterator } = await call<{ ShardIterator: string }>(
        endpoint,
        `${streams}.GetShardIterator`,
        { StreamArn: streamArn, ShardId, ShardIteratorType: first ? 'LATEST' : 'TRIM_HORIZON' },
      )
      iterators.set(ShardId, ShardIterator)
    }
  }

  const invokeFanOut = async (records: StreamRecord[]) => {
    const url = `http://127.0.0.1:${options.lambdaPort}/2015-03-31/functions/${options.functionName}/invocations`
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ Records: records }),
    })
    await response.text()
    if (!response.ok) throw new Error(`the fan-out answered ${response.status}`)
    batches += 1
  }

  const pollOnce = async (): Promise<boolean> => {
    let busy = false
    for (const [shardId, iterator] of iterators) {
      if (!iterator) continue
      const { Records = [], NextShardIterator } = await call<{
        Records?: StreamRecord[]
        NextShardIterator?: string
      }>(endpoint, `${streams}.GetRecords`, { ShardIterator: iterator, Limit: 100 })
      const fannedOut = Records.filter(isFannedOut)
      // A failed invocation is retried with the same iterator, as Lambda retries a batch.
      if (fannedOut.length > 0) await invokeFanOut(fannedOut)
      iterators.set(shardId, NextShardIterator ?? null)
      if (Records.length > 0) busy = true
    }
    return busy
  }

  await discoverShards(true)
  const loop = pollUntilStopped({
    stopped: () => stopped,
    idleMs: options.idleMs ?? 100,
    // New shards appear as DynamoDB Local rolls them (and when one closes).
    discover: (round) =>
      round % 20 === 0 || [...iterators.values()].every((iterator) => !iterator)
        ? discoverShards(false)
        : undefined,
    pollOnce,
  })
  return {
    batches: () => batches,
    stop: async () => {
      stopped = true
      await loop
    },
  }
}

/** Polls until stopped: at once while records come, after a pause when none (longer on errors). */
async function pollUntilStopped(loop: {
  stopped: () => boolean
  idleMs: number
  discover: (round: number) => Promise<void> | undefined
  pollOnce: () => Promise<boolean>
}): Promise<void> {
  let failures = 0
  let idleRounds = 0
  for (let round = 0; !loop.stopped(); round += 1) {
    try {
      await loop.discover(round)
      if (await loop.pollOnce()) {
        idleRounds = 0
        continue
      }
      failures = 0
      idleRounds += 1
    } catch {
      // DynamoDB Local or offline restarting (a reload): try again after a pause.
      failures += 1
    }
    // A quiet table is read less often (up to 4 pauses apart), so an idle stack or a test run
    // beside it does not keep DynamoDB Local busy; the first change after a quiet spell waits at
    // most that long.
    const pause = loop.idleMs * Math.max(Math.min(1 + failures, 20), Math.min(idleRounds, 4))
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}
