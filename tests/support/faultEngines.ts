import { DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { createHash } from 'node:crypto'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { type ClientRequest, createServer, type IncomingMessage } from 'node:http'
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Account,
  type Chain,
  type Hex,
  createTestClient,
  http,
  publicActions,
  walletActions,
} from 'viem'
import { rpcRequestChannel } from './rpcChannels'
import { type AnvilNode, startAnvil } from '../../lib/local/anvil'
import { type DynamoLocal, startDynamoLocal } from '../../lib/local/dynamoLocal'
import { findFreePort } from '../../lib/local/findFreePort'
import { createTable, LOCAL_TABLE_NAME } from '../../lib/local/localTable'
import { expect } from 'vitest'
import type { EnvelopeResponse } from './httpEvent'

// Engines of one fault-test file's own, to stop, freeze and restart mid-run: the shared engines
// of the global setup serve every other test file at the same time and must stay up. A restart
// keeps the port, so the clients the handlers built on first use reconnect by themselves.

export interface RestartableEngine {
  /** SIGTERM, and wait for the exit: connections are refused from then on. */
  stop(): Promise<void>
  /** Starts it again on the same port, with the data it had (a DynamoDB warmed up as at first). */
  start(): Promise<void>
  /** SIGSTOP: connections are accepted and never answered, like a hung host. */
  freeze(): void
  /** SIGCONT after `freeze()`. */
  thaw(): void
  /** Stops it for good (thawed first, so SIGTERM is heard) and removes its files. */
  close(): Promise<void>
}

export interface RestartableDynamo extends RestartableEngine {
  endpoint: string
}

export interface RestartableAnvil extends RestartableEngine {
  rpcUrl: string
  chainId: number
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid !== undefined) process.kill(pid, name)
}

/** Whether every thread of `pid` is stopped (state T in /proc), so nothing more is answered. */
function allThreadsStopped(pid: number): boolean {
  const threads = readdirSync(`/proc/${pid}/task`)
  return threads.every((thread) => {
    const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8')
    return /^\d+ \(.*\) [Tt] /s.test(stat)
  })
}

/**
 * Looks at /proc, 5 ms apart, before a process sent SIGSTOP counts as not stopping: a count, not
 * a deadline, so a loaded machine (where each look takes longer) gives the kernel longer too.
 */
const STOP_LOOKS = 400

/**
 * SIGSTOP, then wait until the kernel has stopped every thread: the signal is asynchronous, and a
 * request sent at once could still be answered by a thread not yet stopped.
 */
function freezeProcess(pid: number | undefined): void {
  if (pid === undefined) return
  process.kill(pid, 'SIGSTOP')
  for (let look = 1; !allThreadsStopped(pid); look += 1) {
    if (look === STOP_LOOKS) throw new Error(`process ${pid} did not stop`)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5)
  }
}

/** DynamoDB Local on a free port with the table, its data on disk so a restart keeps it. */
export async function startRestartableDynamo(): Promise<RestartableDynamo> {
  const port = await findFreePort()
  const persistPath = mkdtempSync(join(tmpdir(), 'fault-dynamo-'))
  let node: DynamoLocal | undefined = await startDynamoLocal({ port, persistPath })
  await createTable(node.endpoint, LOCAL_TABLE_NAME)
  await warmUp(node.endpoint)
  const endpoint = node.endpoint
  return {
    endpoint,
    async stop() {
      await node?.stop()
      node = undefined
    },
    async start() {
      node = await startDynamoLocal({ port, persistPath })
      await warmUp(node.endpoint)
    },
    freeze: () => freezeProcess(node?.pid),
    thaw: () => signal(node?.pid, 'SIGCONT'),
    async close() {
      signal(node?.pid, 'SIGCONT')
      await node?.stop()
      rmSync(persistPath, { recursive: true, force: true })
    },
  }
}

function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  })
}

/**
 * Creates the service's table under `tableName` on a DynamoDB Local: a file's own table on the
 * shared engine keeps its cursors and pending trades apart from every other file's.
 */
const WARM_ENOUGH_MS = 100

/**
 * A fresh JVM can miss the handlers' 1 s timeout on its first writes on a busy machine; a few
 * rounds of writes and queries, with no timeout, until one round is quick, keep the setup steady.
 */
async function warmUp(endpoint: string): Promise<void> {
  const client = localClient(endpoint)
  const pk = { S: 'WARMUP#fault-engines' }
  try {
    for (let round = 0; round < 50; round += 1) {
      const { ms } = await timed(async () => {
        await client.send(
          new PutItemCommand({
            TableName: LOCAL_TABLE_NAME,
            Item: { pk, sk: { S: `ROUND#${round}` } },
          }),
        )
        await client.send(
          new QueryCommand({
            TableName: LOCAL_TABLE_NAME,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk },
          }),
        )
      })
      if (round >= 5 && ms < WARM_ENOUGH_MS) return
    }
  } finally {
    client.destroy()
  }
}

/**
 * A test client of a devnet a file started on its own: anvil's test actions with the public and
 * wallet ones, no retries (a fault test counts what reaches the node), receipts polled every 50 ms.
 */
export function ownDevnetClient<OwnAccount extends Account | undefined = undefined>(
  rpcUrl: string,
  chain: Chain,
  account?: OwnAccount,
) {
  return createTestClient({
    mode: 'anvil',
    chain,
    account,
    transport: http(rpcUrl, { retryCount: 0 }),
    pollingInterval: 50,
  })
    .extend(publicActions)
    .extend(walletActions)
}

/**
 * An anvil devnet on a free port. `stop()` dumps its state first (`anvil_dumpState`) and
 * `start()` loads it back, so blocks, receipts, balances, nonces and contracts survive.
 */
export async function startRestartableAnvil({
  chainId,
}: {
  chainId: number
}): Promise<RestartableAnvil> {
  const port = await findFreePort()
  let node: AnvilNode | undefined = await startAnvil({ port, chainId })
  const rpcUrl = node.rpcUrl
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl, { retryCount: 0 }) })
  let state: Hex | undefined
  return {
    rpcUrl,
    chainId,
    async stop() {
      state = await client.dumpState()
      await node?.stop()
      node = undefined
    },
    async start() {
      node = await startAnvil({ port, chainId })
      if (state !== undefined) await client.loadState({ state })
    },
    freeze: () => freezeProcess(node?.pid),
    thaw: () => signal(node?.pid, 'SIGCONT'),
    async close() {
      signal(node?.pid, 'SIGCONT')
      await node?.stop()
    },
  }
}

export interface JsonRpcCall {
  method: string
  params?: unknown[]
}

/** How a misbehaving provider answers, for every request while it is set. */
export type ProviderFault =
  'http-429' | 'http-500' | 'rpc-rate-limit' | 'rpc-internal' | 'garbage' | 'silence'

export interface RpcProxy {
  url: string
  /** Requests holding a call that matches answer HTTP 503; `undefined` forwards everything. */
  refuse(matches: ((call: JsonRpcCall) => boolean) | undefined): void
  /** Answers every request the way a failing provider does; `undefined` forwards again. */
  misbehave(fault: ProviderFault | undefined): void
  /**
   * Answers each call that matches with this JSON-RPC error and forwards the others of its batch,
   * as a provider refusing one kind of call does; `undefined` forwards everything.
   */
  answerWithError(
    matches: ((call: JsonRpcCall) => boolean) | undefined,
    error?: { code: number; message: string },
  ): void
  /** Requests received (HTTP POSTs) since the start. */
  requests(): number
  close(): Promise<void>
}

function rpcError(body: string, code: number, message: string): string {
  const calls = [JSON.parse(body) as { id?: number } | Array<{ id?: number }>].flat()
  const answers = calls.map((call) => ({
    jsonrpc: '2.0',
    id: call.id ?? null,
    error: { code, message },
  }))
  return JSON.stringify(body.trimStart().startsWith('[') ? answers : answers[0])
}

/** The answer of a failing provider, or undefined to stay silent (never answer). */
function faultAnswer(
  fault: ProviderFault,
  body: string,
): { status: number; type: string; body: string } | undefined {
  switch (fault) {
    case 'http-429':
      return { status: 429, type: 'application/json', body: '{"error":"Too Many Requests"}' }
    case 'http-500':
      return { status: 500, type: 'text/html', body: '<html>Internal Server Error</html>' }
    case 'rpc-rate-limit':
      return {
        status: 200,
        type: 'application/json',
        body: rpcError(body, -32005, 'limit exceeded'),
      }
    case 'rpc-internal':
      return {
        status: 200,
        type: 'application/json',
        body: rpcError(body, -32603, 'internal error'),
      }
    case 'garbage':
      return { status: 200, type: 'application/json', body: '{"jsonrpc":"2.0","id":' }
    case 'silence':
      return undefined
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => resolve(body))
    request.on('error', reject)
  })
}

/**
 * A JSON-RPC pass-through on a free loopback port that fails chosen calls (a batch fails whole,
 * as a provider's would): a node that breaks on one call of a run, which a real anvil cannot do.
 */
export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  let matches: ((call: JsonRpcCall) => boolean) | undefined
  let fault: ProviderFault | undefined
  let erroring:
    | { matches: (call: JsonRpcCall) => boolean; error: { code: number; message: string } }
    | undefined
  let received = 0
  const server = createServer((request, response) => {
    received += 1
    void readBody(request)
      .then(async (body) => {
        if (erroring) {
          const parsed = JSON.parse(body) as
            (JsonRpcCall & { id?: number }) | Array<JsonRpcCall & { id?: number }>
          const calls = [parsed].flat()
          const refused = calls.filter(erroring.matches)
          if (refused.length > 0) {
            const forwarded = calls.filter((call) => !refused.includes(call))
            const answers: unknown[] = refused.map((call) => ({
              jsonrpc: '2.0',
              id: call.id ?? null,
              error: erroring?.error,
            }))
            if (forwarded.length > 0) {
              const upstreamAnswer = await fetch(upstream, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(forwarded),
              })
              answers.push(...((await upstreamAnswer.json()) as unknown[]))
            }
            const answer = Array.isArray(parsed) ? answers : answers[0]
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify(answer))
            return
          }
        }
        if (fault) {
          const answer = faultAnswer(fault, body)
          if (answer)
            response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body)
          return
        }
        const calls = [JSON.parse(body) as JsonRpcCall | JsonRpcCall[]].flat()
        if (matches && calls.some(matches)) {
          response.writeHead(503, { 'content-type': 'text/plain' }).end('injected fault')
          return
        }
        const answer = await fetch(upstream, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        response
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(await answer.text())
      })
      .catch(() => response.destroy())
  })
  const port = await findFreePort()
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port }, resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    refuse(next) {
      matches = next
    },
    misbehave(next) {
      fault = next
    },
    answerWithError(matches, error = { code: -32005, message: 'limit exceeded' }) {
      erroring = matches && { matches, error }
    },
    requests: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface Timed<Result> {
  result: Result
  ms: number
}

/** Runs `call` and measures its wall time. */
export async function timed<Result>(call: () => Promise<Result>): Promise<Timed<Result>> {
  const startedAt = performance.now()
  const result = await call()
  return { result, ms: Math.round(performance.now() - startedAt) }
}

export interface FaultTiming {
  fault: string
  what: string
  status: number | string
  ms: number
}

/**
 * Collects measured fault timings, prints them as they come (so a run's output can be quoted) and
 * writes them to `.test-output/faults/<name>.json` at the end.
 */
export function faultLog(name: string) {
  const timings: FaultTiming[] = []
  return {
    timings,
    record(timing: FaultTiming) {
      timings.push(timing)
      console.log(
        `[fault] ${timing.fault}: ${timing.what} → ${timing.status} after ${(timing.ms / 1000).toFixed(2)} s`,
      )
    },
    write() {
      const folder = join('.test-output', 'faults')
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, `${name}.json`), `${JSON.stringify(timings, null, 2)}\n`)
    },
  }
}

/**
 * The bound: a route answers a fault within 3 s. The tests check it on the configuration
 * (attempts × per-attempt timeout), never on a measured time, which a loaded machine stretches.
 */
export const FAULT_BOUND_MS = 3_000
/**
 * Outage answers a route may still give after the engine is back (each bounded by its attempts)
 * before it must answer 200: the restart waited for the engine itself, so one call is the rule.
 */
const RECOVERY_CALLS = 10

/** The outage's error envelope (503 database, 502 chain): nothing else, no URL, no stack. */
export function expectOutage(
  response: EnvelopeResponse,
  error: { code: 502 | 503; message: string },
): void {
  expect(response).toEqual({ status: error.code, body: { ok: false, error } })
}

/**
 * Calls `call` until it answers 200, every other answer being `outageStatus`, at most
 * RECOVERY_CALLS times; the time it took, for the fault log.
 */
export async function untilServed(
  call: () => Promise<EnvelopeResponse>,
  outageStatus: 502 | 503,
): Promise<number> {
  const startedAt = performance.now()
  for (let calls = 1; ; calls += 1) {
    const response = await call()
    if (response.status === 200) return Math.round(performance.now() - startedAt)
    expect(response.status).toBe(outageStatus)
    if (calls === RECOVERY_CALLS) {
      throw new Error(`still ${response.status} after ${calls} calls since the restart`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The HTTP requests this process sent or tried to one node, each as the JSON-RPC calls it carried
 * (`method <digest of params>`, the id left out: a retry asks again under a new id) and how it
 * ended. Node's own channel names the host of each request as it is created; the service's
 * transport publishes each body just before it creates the request (`rpcRequestChannel`), which
 * pairs the two.
 */
export interface RpcAttempts {
  /**
   * The requests since the last take (or the start), and a fresh start; taken once every call the
   * service's client had begun has settled, its retries included, and every request has ended. A
   * request answers after its first failing call has had its attempts, while the calls beside it
   * may still be pausing before their last try: without the wait, that try would be counted in
   * the next request's window.
   */
  take(): Promise<RpcPost[]>
  stop(): void
}

export interface RpcPost {
  calls: string[]
  /**
   * `answered`, or the socket's error code: `ECONNREFUSED` (nothing listens), `ECONNRESET` (cut
   * unanswered: the transport gives a request up at its timeout by destroying it).
   */
  outcome: string
}

/** A short digest of a call's params: a state override makes an `eth_call` kilobytes long. */
function digest(params: unknown): string {
  return createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 12)
}

/** What the counter needs of a viem client: the request every action goes through. */
interface RequestingClient {
  request: (...args: never[]) => Promise<unknown>
}

export function countRpcAttempts(rpcUrl: string, client: RequestingClient): RpcAttempts {
  const host = new URL(rpcUrl).host
  let lastBody: string | undefined
  let posts: Array<RpcPost & { ended: Promise<void> }> = []
  const calls = new Set<Promise<unknown>>()
  const onBody = (body: unknown) => {
    lastBody = String(body)
  }
  const onRequest = (message: unknown) => {
    const { request } = message as { request: ClientRequest }
    const body = lastBody
    lastBody = undefined
    if (request.getHeader('host') !== host) return
    const parsed =
      body === undefined ? [] : [JSON.parse(body) as JsonRpcCall | JsonRpcCall[]].flat()
    const post = {
      calls: parsed.map((call) => `${call.method} ${digest(call.params ?? [])}`),
      outcome: 'unfinished',
      ended: new Promise<void>((resolve) => request.once('close', resolve)),
    }
    request.once('response', () => (post.outcome = 'answered'))
    request.once('error', (error: NodeJS.ErrnoException) => {
      if (post.outcome === 'unfinished') post.outcome = error.code ?? error.name
    })
    posts.push(post)
  }
  // Every call of the service's client, retries included (viem retries inside `request`).
  const send = client.request
  client.request = (...args: never[]) => {
    const call = send(...args)
    const settled = call.then(
      () => undefined,
      () => undefined,
    )
    calls.add(settled)
    void settled.then(() => calls.delete(settled))
    return call
  }
  rpcRequestChannel.subscribe(onBody)
  subscribe('http.client.request.created', onRequest)
  return {
    async take() {
      while (calls.size > 0) await Promise.all([...calls])
      const taken = posts
      posts = []
      await Promise.all(taken.map((post) => post.ended))
      return taken.map(({ calls: carried, outcome }) => ({ calls: carried, outcome }))
    },
    stop() {
      client.request = send
      rpcRequestChannel.unsubscribe(onBody)
      unsubscribe('http.client.request.created', onRequest)
    },
  }
}

/**
 * The attempts the SDK made for each DynamoDB command sent through `client`: a middleware at the
 * build step sees each command once as it leaves (a write held back for its route's session and
 * refused with it never does: lib/admission.ts), one at the deserialize step (inside the retry
 * loop of `finalizeRequest`) each attempt, refused or timed out ones included, and how each
 * failed attempt failed.
 */
export interface DynamoAttempts {
  /**
   * Each command since the last take (or the start), in the order sent, once every one of those
   * commands has settled (a command still retrying is waited for); and a fresh start.
   */
  take(): Promise<CommandAttempts[]>
  stop(): void
}

export interface CommandAttempts {
  attempts: number
  /**
   * How each failed attempt ended, in order: the socket's error code (`ECONNREFUSED`) or the
   * error's name (`TimeoutError`: the request timeout; `InternalFailure`: an answer).
   */
  failures: string[]
}

interface CountedCommand extends CommandAttempts {
  settled: Promise<unknown>
}

/** A named error's name (`TimeoutError`), else a socket error's code (`ECONNREFUSED`). */
function failureOf(error: unknown): string {
  const { code, name } = error as { code?: unknown; name?: unknown }
  return name === 'Error' && typeof code === 'string' ? code : String(name)
}

export function countDynamoAttempts(client: DynamoDBDocumentClient): DynamoAttempts {
  let commands: CountedCommand[] = []
  const commandOf = new WeakMap<object, CountedCommand>()
  client.middlewareStack.add(
    (next, context) => (args) => {
      const command: CountedCommand = { attempts: 0, failures: [], settled: Promise.resolve() }
      commands.push(command)
      commandOf.set(context, command)
      const result = next(args)
      command.settled = result.then(
        () => undefined,
        () => undefined,
      )
      return result
    },
    { step: 'build', name: 'faultCountCommands', priority: 'high' },
  )
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = commandOf.get(context)
      if (command) command.attempts += 1
      try {
        return await next(args)
      } catch (error) {
        command?.failures.push(failureOf(error))
        throw error
      }
    },
    { step: 'deserialize', name: 'faultCountAttempts' },
  )
  return {
    async take() {
      const taken = commands
      commands = []
      await Promise.all(taken.map((command) => command.settled))
      return taken.map(({ attempts, failures }) => ({ attempts, failures }))
    },
    stop() {
      client.middlewareStack.remove('faultCountCommands')
      client.middlewareStack.remove('faultCountAttempts')
    },
  }
}

interface HandlerTimeouts {
  connectionTimeout?: number
  requestTimeout?: number
  throwOnRequestTimeout?: boolean
}

/**
 * The timeouts the client's HTTP handler runs with (smithy's NodeHttpHandler), resolved at its
 * first request: read them after one. The client's config types the handler without this method.
 */
export function dynamoTimeouts(client: DynamoDBDocumentClient): HandlerTimeouts {
  const handler = client.config.requestHandler as { httpHandlerConfigs?: () => HandlerTimeouts }
  return handler.httpHandlerConfigs?.() ?? {}
}
