import { type Client, createTestClient, http } from 'viem'
import { getChainId, setBlockTimestampInterval } from 'viem/actions'
import { AnvilStartError, spawnAnvil } from './anvilProcess'
import { findTakenPorts } from './checkPorts'
import { formatDuration, NotReadyError } from './processes'

export { AnvilStartError } from './anvilProcess'

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

/** anvil's own default mnemonic, so account 0 is the well-known 0xf39F…2266 */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1'])
/** How far back a devnet's genesis lies by default: a year of history and a few days to spare. */
export const DEVNET_HISTORY_DAYS = 370
const READY_TIMEOUT_MS = 15_000
const READY_POLL_MS = 25

/** anvil's command line: ten funded accounts of the mnemonic, and the chain as asked. */
function anvilArgs({
  port,
  chainId,
  host,
  genesisTimestamp,
  baseFeeWei,
  loadStatePath,
}: Required<Pick<StartAnvilParameters, 'port' | 'chainId' | 'host' | 'genesisTimestamp'>> &
  Pick<StartAnvilParameters, 'baseFeeWei' | 'loadStatePath'>): string[] {
  return [
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
  ]
}

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

  const { child, exitReason, stop } = spawnAnvil(
    anvilArgs({ port, chainId, host, genesisTimestamp, baseFeeWei, loadStatePath }),
  )
  const rpcUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const client = createTestClient({
    mode: 'anvil',
    transport: http(rpcUrl, { retryCount: 0, timeout: 1_000 }),
  })

  try {
    await waitForChainId(client, {
      chainId,
      address,
      exitReason,
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
