import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'
import { redact } from '../logger'
import { findFreePort } from './findFreePort'
import { type GatewayFront, startGatewayFront } from './gatewayFront'
import { stopProcess, waitUntil } from './processes'
import { startStreamPoller, type StreamPoller } from './streamPoller'

/** The fan-out as serverless offline names it (service, stage, function). */
const FAN_OUT_FUNCTION = 'wallet-backend-local-wsFanOut'

export interface Offline {
  apiUrl: string
  /** The WebSocket API (DECISIONS §10.3), fed by the table's stream (lib/local/streamPoller.ts). */
  wsUrl: string
  pid: number
  stop(): Promise<void>
}

export interface StartOfflineOptions {
  /** The HTTP API's port: the gateway front's (lib/local/gatewayFront.ts); offline's is internal. */
  httpPort: number
  /** The WebSocket API's port: offline's websocket server, its @connections API too. */
  websocketPort: number
  lambdaPort: number
  env: Record<string, string>
  /**
   * Where to write its output once it answers, redacted; silent when absent. What it prints while
   * starting (its route table) is kept for the error instead.
   */
  output?: (line: string) => void
  /** How long starting may take until a route answers; 240 s unless given. */
  readyTimeoutMs?: number
  /**
   * The functions are bundled already (lib/local/bundleFunctions.ts): serverless-esbuild builds
   * none and offline runs those bundles.
   */
  prebuilt?: boolean
  /**
   * Settles once a route may be asked for (the bundles written, the table seeded): the CLI
   * starts meanwhile. A rejection stops offline and is rethrown.
   */
  readyAfter?: Promise<unknown>
  /** Stops it and ends the wait (Ctrl-C while the stack comes up). */
  signal?: AbortSignal
}

const require = createRequire(import.meta.url)

const READY_TIMEOUT_MS = 240_000
const OUTPUT_TAIL_LINES = 40
// The first request loads the function and its modules (and the SDK reads its settings): on a
// busy machine that alone can take seconds, so one probe may take this long before the next.
const PROBE_TIMEOUT_MS = 10_000

/** The serverless CLI, `offline start` for the local stage on `offlinePort`, in a group of its own. */
function spawnOffline(cli: string, options: StartOfflineOptions, offlinePort: number) {
  return spawn(
    process.execPath,
    [cli, 'offline', 'start', '--stage', 'local', '--httpPort', String(offlinePort)],
    {
      env: {
        ...process.env,
        ...options.env,
        HTTP_PORT: String(options.httpPort),
        WS_PORT: String(options.websocketPort),
        LAMBDA_PORT: String(options.lambdaPort),
        ...(options.prebuilt && { OFFLINE_PREBUILT: '1' }),
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
}

/** The fan-out's event source: DynamoDB Local's stream, read once offline can run the fan-out. */
function feedFanOut(options: StartOfflineOptions): Promise<StreamPoller> {
  return startStreamPoller({
    dynamoEndpoint: String(options.env.DYNAMODB_ENDPOINT),
    tableName: String(options.env.TABLE_NAME),
    lambdaPort: options.lambdaPort,
    functionName: FAN_OUT_FUNCTION,
  })
}

/** Rejects once the CLI exits, with the last lines it printed. */
function earlyExit(child: ChildProcess, tail: readonly string[]) {
  return new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(
        new Error(
          `serverless offline exited early with ${signal ?? `code ${code}`}:\n${tail.join('\n')}`.trimEnd(),
        ),
      ),
    )
  })
}

/**
 * Runs `serverless offline` for the local stage: every route and schedule of serverless.yml,
 * each function bundled by serverless-esbuild. The CLI runs under plain Node, as `npx serverless`
 * does: serverless.yml loads its TypeScript through tsx itself (lib/serverless/plugin.cjs), and
 * tsx over the whole CLI added 0.8 s of CPU to its start (3.6 s against 2.8 s).
 */
export async function startOffline(options: StartOfflineOptions): Promise<Offline> {
  const cli = require.resolve('serverless/bin/serverless.js')
  // Offline itself listens on a port of its own; the front answers on httpPort as the gateway
  // would. HTTP_PORT stays the public port: the sign-in domain and CORS origins name it.
  const offlinePort = await findFreePort()
  const front: GatewayFront = await startGatewayFront({
    port: options.httpPort,
    upstreamPort: offlinePort,
  })
  const child = spawnOffline(cli, options, offlinePort)
  // Request lines name the raw path, and some paths carry a key: everything printed is redacted.
  const tail: string[] = []
  let ready = false
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      const safe = String(redact(line))
      if (ready) {
        options.output?.(safe)
        return
      }
      tail.push(safe)
      if (tail.length > OUTPUT_TAIL_LINES) tail.shift()
    })
  }
  const apiUrl = front.url
  const stop = async () => {
    await Promise.all([stopProcess(child, 5000), front.close()])
  }
  try {
    // The CLI failing meanwhile (a bad serverless.yml) is reported now, not once the rest is up.
    const exited = earlyExit(child, tail)
    exited.catch(() => {})
    await Promise.race([options.readyAfter, exited])
  } catch (error) {
    await stop()
    throw error
  }
  try {
    await waitUntil(
      `serverless offline on :${options.httpPort}`,
      async (signal) => {
        const response = await fetch(`${apiUrl}/api/v1/networks`, { signal })
        await response.body?.cancel()
        return response.status === 200
      },
      {
        timeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
        child,
        intervalMs: 250,
        probeTimeoutMs: PROBE_TIMEOUT_MS,
        signal: options.signal,
      },
    )
  } catch (error) {
    await stop()
    if (!(error instanceof Error) || options.signal?.aborted) throw error
    error.message = `${error.message}\n${tail.join('\n')}`.trimEnd()
    throw error
  }
  const poller = await feedFanOut(options).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  ready = true
  return {
    apiUrl,
    wsUrl: `ws://127.0.0.1:${options.websocketPort}`,
    pid: Number(child.pid),
    stop: async () => {
      await poller.stop()
      await stop()
    },
  }
}
