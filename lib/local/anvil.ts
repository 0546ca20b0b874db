import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Socket } from 'node:net'
import { dirname, join } from 'node:path'
import { type Client, createTestClient, http } from 'viem'
import { getChainId, setBlockTimestampInterval } from 'viem/actions'
import { findTakenPorts } from './checkPorts'
import { formatDuration, NotReadyError, stopProcess } from './processes'

export type StartAnvilParameters = {
  port: number
  chainId: number
  /** Loopback only: the devnet accounts use publicly known keys. */
  host?: string
  /** Seconds added to each new block's timestamp (`anvil_setBlockTimestampInterval`). */
  blockTimestampInterval?: number
  /**
   * The genesis block's time (Unix seconds), or 'now'. A year back unless given: the devnets
   * live their year of price history before the stack serves (lib/local/seedChainHistory.ts),
   * and later blocks follow the clock from the last one.
   */
  genesisTimestamp?: number | 'now'
  /** The genesis block's base fee in wei (anvil's own 1 gwei unless given): an L2's is cheap. */
  baseFeeWei?: bigint
  /** How long it may take to answer eth_chainId; 15 s unless given. */
  readyTimeoutMs?: number
  /**
   * Starts from a state file (`anvil_dumpState`'s JSON, gunzipped): a copy of another devnet that
   * a test can trade on without disturbing it (tests/reference/ownDevnet.ts).
   */
  loadStatePath?: string
  /** Stops it and ends the wait (Ctrl-C while the stack comes up). */
  signal?: AbortSignal
}

export type AnvilNode = {
  rpcUrl: string
  chainId: number
  pid: number
  /** SIGTERM, then SIGKILL after 2 s; resolves once the process has exited. */
  stop(): Promise<void>
}

export class AnvilStartError extends Error {
  override name = 'AnvilStartError'
}

/** anvil's own default mnemonic, so account 0 is the well-known 0xf39F…2266 */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1'])
/** How far back a devnet's genesis lies by default: a year of history and a few days to spare. */
export const DEVNET_HISTORY_DAYS = 370
const READY_TIMEOUT_MS = 15_000
const READY_POLL_MS = 25
const STOP_GRACE_MS = 2_000
const STDERR_TAIL_CHARS = 2_000

// The npm wrapper maps Node's arch names onto these package suffixes (see @foundry-rs/anvil/const.mjs).
const PACKAGE_ARCH: Partial<Record<NodeJS.Platform, Partial<Record<NodeJS.Architecture, string>>>> =
  {
    darwin: { x64: 'amd64', arm64: 'arm64' },
    linux: { x64: 'amd64', arm64: 'arm64' },
    win32: { x64: 'amd64' },
  }

const require = createRequire(import.meta.url)
const running = new Set<ChildProcess>()
const PARENT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Starts an anvil devnet bound to loopback and resolves once its RPC answers with the
 * expected chain id. The caller owns the node and must call `stop()`; as a safety net a node
 * still running is SIGKILLed when this process exits or receives SIGINT, SIGTERM or SIGHUP.
 */
export async function startAnvil({
  port,
  chainId,
  host = '127.0.0.1',
  blockTimestampInterval,
  genesisTimestamp = Math.floor(Date.now() / 1000) - DEVNET_HISTORY_DAYS * 86_400,
  baseFeeWei,
  readyTimeoutMs = READY_TIMEOUT_MS,
  loadStatePath,
  signal,
}: StartAnvilParameters): Promise<AnvilNode> {
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new AnvilStartError(`anvil must bind to loopback, got host ${host}`)
  }
  const address = `${host}:${port}`
  // anvil exits on a taken port, but a node already there could answer our poll first.
  const [taken] = await findTakenPorts([{ port, host, service: 'anvil' }])
  if (taken) throw new AnvilStartError(`cannot start anvil on ${address}: ${taken.code}`)

  const child = spawn(
    resolveAnvilBinary(),
    [
      '--host',
      host,
      '--port',
      String(port),
      '--chain-id',
      String(chainId),
      '--mnemonic',
      ANVIL_MNEMONIC,
      '--accounts',
      '10',
      '--balance',
      '10000',
      ...(genesisTimestamp === 'now' ? [] : ['--timestamp', String(genesisTimestamp)]),
      ...(baseFeeWei === undefined ? [] : ['--block-base-fee-per-gas', String(baseFeeWei)]),
      ...(loadStatePath === undefined ? [] : ['--load-state', loadStatePath]),
      '--quiet',
    ],
    // stdout is silent with --quiet; stderr is kept only to explain an early exit.
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  trackUntilExit(child)

  let stderrTail = ''
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)
  })
  // Neither the process nor its stderr pipe may keep the parent's event loop alive.
  child.unref()
  if (child.stderr instanceof Socket) child.stderr.unref()

  let exitReason: string | undefined
  child.once('error', (error) => {
    exitReason = `could not be spawned: ${error.message}`
  })
  // 'close' rather than 'exit' so the stderr tail is complete.
  child.once('close', (code, signal) => {
    exitReason = `exited with ${signal ?? `code ${code}`}: ${stderrTail.trim() || 'no output'}`
  })
  const stop = stopOnce(child)
  const rpcUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const client = createTestClient({
    mode: 'anvil',
    transport: http(rpcUrl, { retryCount: 0, timeout: 1_000 }),
  })

  try {
    await waitForChainId(client, {
      chainId,
      address,
      exitReason: () => exitReason,
      timeoutMs: readyTimeoutMs,
      signal,
    })
    if (blockTimestampInterval !== undefined) {
      await setBlockTimestampInterval(client, { interval: blockTimestampInterval })
    }
  } catch (error) {
    await stop()
    throw error
  }

  if (child.pid === undefined) throw new AnvilStartError(`anvil on ${address} has no pid`)
  return { rpcUrl, chainId, pid: child.pid, stop }
}

/** Path of the platform's anvil binary, bypassing the npm wrapper (it ignores SIGINT). */
export function resolveAnvilBinary(): string {
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  const arch = PACKAGE_ARCH[process.platform]?.[process.arch]
  const packageName = `@foundry-rs/anvil-${process.platform}-${arch ?? process.arch}`
  try {
    const candidate = join(dirname(require.resolve(`${packageName}/package.json`)), 'bin', binary)
    if (existsSync(candidate)) return candidate
  } catch {
    // Only linux-amd64 is pinned in package.json (the registry we install from has no other).
  }
  // An anvil of foundry's own on the PATH serves as well.
  if (spawnSync(binary, ['--version']).status === 0) return binary
  throw new AnvilStartError(
    `no anvil for ${process.platform}-${process.arch}: run \`npm install --no-save ${packageName}@1.7.1\` or put foundry's anvil on the PATH`,
  )
}

async function waitForChainId(
  client: Client,
  {
    chainId,
    address,
    exitReason,
    timeoutMs,
    signal,
  }: {
    chainId: number
    address: string
    exitReason: () => string | undefined
    timeoutMs: number
    signal?: AbortSignal
  },
): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    signal?.throwIfAborted()
    const answered = await getChainId(client).catch(() => undefined)
    const exited = exitReason()
    if (exited !== undefined) throw new AnvilStartError(`anvil on ${address} ${exited}`)
    if (answered === chainId) return
    if (answered !== undefined) {
      throw new AnvilStartError(
        `node on ${address} answered chain id ${answered}, expected ${chainId}`,
      )
    }
    await sleep(READY_POLL_MS)
  }
  signal?.throwIfAborted()
  throw new NotReadyError(
    `anvil on ${address} did not answer eth_chainId within ${formatDuration(timeoutMs)}`,
  )
}

function stopOnce(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined
  return () => {
    // A child that failed to spawn has no pid and never emits 'exit'.
    if (child.pid === undefined) return Promise.resolve()
    // Hold the event loop until the exit is observed.
    child.ref()
    stopping ??= stopProcess(child, STOP_GRACE_MS)
    return stopping
  }
}

/**
 * While any node runs, the parent's exit or a terminating signal SIGKILLs it first. Node skips
 * 'exit' handlers on a signal (vitest stops its forks with SIGTERM), hence the signal hooks; a
 * SIGKILLed parent cannot be covered this way.
 */
function trackUntilExit(child: ChildProcess): void {
  running.add(child)
  if (running.size === 1) setParentHooks('on')
  const untrack = () => {
    if (running.delete(child) && running.size === 0) setParentHooks('off')
  }
  child.once('exit', untrack)
  child.once('error', untrack)
}

function setParentHooks(action: 'on' | 'off'): void {
  process[action]('exit', killRunning)
  for (const signal of PARENT_SIGNALS) process[action](signal, onParentSignal)
}

function killRunning(): void {
  // 'exit' handlers must be synchronous; kill() is.
  for (const child of running) child.kill('SIGKILL')
}

function onParentSignal(signal: NodeJS.Signals): void {
  killRunning()
  setParentHooks('off')
  // Re-raise for the default action (terminate), unless another listener owns the shutdown.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
