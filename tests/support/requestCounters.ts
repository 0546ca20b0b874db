import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { rpcExchangeChannel, type RpcExchangeMessage, rpcRequestChannel } from './rpcChannels'

// What one request costs: the DynamoDB commands the code sends and the JSON-RPC calls viem makes,
// for the counts test (tests/functions/requestCosts.test.ts) and the bench (tests/bench/).

export interface DynamoTally {
  /** Commands sent, SDK retries not included (they are one call to the code). */
  calls: number
  /** Per command name without the `Command` suffix: `GetItem`, `Query`, `TransactWriteItems`. */
  byCommand: Record<string, number>
  /** Items DynamoDB read: ScannedCount of a Query, 1 per item found by a get or batch get. */
  itemsRead: number
}

export interface RpcTally {
  /** JSON-RPC calls, each member of a batch counted. */
  calls: number
  /** HTTP POSTs that carried them: viem sends calls made together as one JSON array. */
  roundTrips: number
  byMethod: Record<string, number>
}

/**
 * The request's critical path: the longest chain of exchanges (DynamoDB commands, RPC POSTs) in
 * which each one started after the one before it had ended. Derived from the order of starts and
 * ends, never from wall time, so it counts what waits on what.
 */
export interface StepTally {
  /** DynamoDB commands and RPC round trips together. */
  all: number
  /** DynamoDB commands only: how many DynamoDB round trips a user waits for, one after another. */
  dynamo: number
}

export interface RequestTally {
  dynamo: DynamoTally
  rpc: RpcTally
  steps: StepTally
}

export interface RequestCounter {
  /** What was counted since the last take (or the start), and a fresh start. */
  take(): RequestTally
  /** Removes the middleware and the channel subscription. */
  stop(): void
}

const MIDDLEWARE_NAME = 'countRequests'

function bump(record: Record<string, number>, key: string, by = 1): void {
  record[key] = (record[key] ?? 0) + by
}

function itemsIn(output: unknown): number {
  const { ScannedCount, Count, Item, Responses } = (output ?? {}) as {
    ScannedCount?: number
    Count?: number
    Item?: unknown
    Responses?: unknown
  }
  if (typeof ScannedCount === 'number') return ScannedCount
  if (typeof Count === 'number') return Count
  if (Item !== undefined) return 1
  // BatchGetItem answers per table; TransactGetItems answers a list of { Item }.
  if (Array.isArray(Responses))
    return Responses.filter((entry: { Item?: unknown } | null) => entry?.Item).length
  if (Responses && typeof Responses === 'object') {
    return Object.values(Responses as Record<string, unknown[]>).reduce(
      (sum, items) => sum + items.length,
      0,
    )
  }
  return 0
}

function jsonRpcMethods(body: unknown): string[] | undefined {
  if (typeof body !== 'string') return undefined
  try {
    const parsed = JSON.parse(body) as unknown
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    const methods = calls.map((call) => (call as { jsonrpc?: unknown; method?: unknown }).method)
    return methods.every((method): method is string => typeof method === 'string')
      ? methods
      : undefined
  } catch {
    return undefined
  }
}

type Depth = StepTally

/**
 * Sequential steps, from starts and ends in the order they happen: an exchange's depth is one
 * more than the deepest exchange that had ended when it started (DynamoDB depth among DynamoDB
 * commands only); the steps are the deepest depth seen.
 */
function criticalPath() {
  let ended: Depth = { all: 0, dynamo: 0 }
  let deepest: Depth = { all: 0, dynamo: 0 }
  const open = new Map<unknown, Depth>()
  return {
    start(exchange: unknown, kind: 'dynamo' | 'rpc') {
      const depth = { all: ended.all + 1, dynamo: kind === 'dynamo' ? ended.dynamo + 1 : 0 }
      open.set(exchange, depth)
      deepest = {
        all: Math.max(deepest.all, depth.all),
        dynamo: Math.max(deepest.dynamo, depth.dynamo),
      }
    },
    end(exchange: unknown) {
      const depth = open.get(exchange)
      if (!depth) return
      open.delete(exchange)
      ended = { all: Math.max(ended.all, depth.all), dynamo: Math.max(ended.dynamo, depth.dynamo) }
    },
    take(): StepTally {
      const taken = deepest
      // Exchanges still open (none, when one request is measured at a time) start over at 1.
      ended = { all: 0, dynamo: 0 }
      deepest = { all: 0, dynamo: 0 }
      open.clear()
      return taken
    },
  }
}

/**
 * Counts, until `stop()`, the commands sent through `client` (a middleware at the build step:
 * once per command whatever the SDK retries, and only once it leaves, after a write has waited
 * for its route's session in the initialize step, lib/admission.ts) and the JSON-RPC calls the service's
 * transport publishes (`rpcRequestChannel`, one message per POST), and the sequential steps
 * between them (criticalPath). Counts everything in the process: measure one request at a time.
 */
export function countRequests(client: DynamoDBDocumentClient): RequestCounter {
  let dynamo: DynamoTally = { calls: 0, byCommand: {}, itemsRead: 0 }
  let rpc: RpcTally = { calls: 0, roundTrips: 0, byMethod: {} }
  const path = criticalPath()

  client.middlewareStack.add(
    (next, context) => async (args) => {
      dynamo.calls += 1
      bump(dynamo.byCommand, context.commandName?.replace(/Command$/, '') ?? 'unknown')
      const exchange = {}
      path.start(exchange, 'dynamo')
      try {
        const result = await next(args)
        dynamo.itemsRead += itemsIn(result.output)
        return result
      } finally {
        path.end(exchange)
      }
    },
    { step: 'build', name: MIDDLEWARE_NAME, priority: 'high' },
  )

  const onRpcRequest = (body: unknown) => {
    const methods = jsonRpcMethods(body)
    if (methods) {
      rpc.roundTrips += 1
      rpc.calls += methods.length
      for (const method of methods) bump(rpc.byMethod, method)
    }
  }
  rpcRequestChannel.subscribe(onRpcRequest)
  const onRpcExchange = (message: unknown) => {
    const { exchange, phase } = message as RpcExchangeMessage
    if (phase === 'open') path.start(`rpc${exchange}`, 'rpc')
    else path.end(`rpc${exchange}`)
  }
  rpcExchangeChannel.subscribe(onRpcExchange)

  return {
    take() {
      const taken = { dynamo, rpc, steps: path.take() }
      dynamo = { calls: 0, byCommand: {}, itemsRead: 0 }
      rpc = { calls: 0, roundTrips: 0, byMethod: {} }
      return taken
    },
    stop() {
      client.middlewareStack.remove(MIDDLEWARE_NAME)
      rpcRequestChannel.unsubscribe(onRpcRequest)
      rpcExchangeChannel.unsubscribe(onRpcExchange)
    },
  }
}

/** What `run` answers and the requests it made, counted at `client` and the RPC transport. */
export async function counted<T>(
  client: DynamoDBDocumentClient,
  run: () => Promise<T>,
): Promise<{ value: T; tally: RequestTally }> {
  const counter = countRequests(client)
  try {
    const value = await run()
    return { value, tally: counter.take() }
  } finally {
    counter.stop()
  }
}

/** `GetItem ×1, Query ×2`, in name order: a stable cell for tables and snapshots. */
export function formatCounts(record: Record<string, number>): string {
  return Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} ×${count}`)
    .join(', ')
}
