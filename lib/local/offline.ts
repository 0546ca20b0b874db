import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'
import { redact } from '../logger'
import { stopProcess, waitUntil } from './processes'

export interface Offline {
  apiUrl: string
  pid: number
  stop(): Promise<void>
}

export interface StartOfflineOptions {
  httpPort: number
  lambdaPort: number
  env: Record<string, string>
  /** Where to write the output, redacted; silent when absent. */
  output?: (line: string) => void
}

const require = createRequire(import.meta.url)

/**
 * Runs `serverless offline` for the local stage: every route and schedule of serverless.yml,
 * each function bundled by serverless-esbuild. The CLI runs under tsx so esbuild.config.ts loads.
 */
export async function startOffline(options: StartOfflineOptions): Promise<Offline> {
  const cli = require.resolve('serverless/bin/serverless.js')
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', cli, 'offline', 'start', '--stage', 'local'],
    {
      env: {
        ...process.env,
        ...options.env,
        HTTP_PORT: String(options.httpPort),
        LAMBDA_PORT: String(options.lambdaPort),
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  // Request lines name the raw path, and some paths carry a key: everything printed is redacted.
  const tail: string[] = []
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      const safe = String(redact(line))
      tail.push(safe)
      if (tail.length > 40) tail.shift()
      options.output?.(safe)
    })
  }
  const apiUrl = `http://127.0.0.1:${options.httpPort}`
  const stop = () => stopProcess(child, 5000)
  try {
    await waitUntil(
      'serverless offline',
      async () => (await fetch(`${apiUrl}/api/v1/networks`)).status === 200,
      { timeoutMs: 240_000, child, intervalMs: 250 },
    )
  } catch (error) {
    await stop()
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`${reason}\n${tail.join('\n')}`)
  }
  return { apiUrl, pid: Number(child.pid), stop }
}
