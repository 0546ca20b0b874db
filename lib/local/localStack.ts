import { join } from 'node:path'
import type { NetworkName } from '../networkNames'
import type { DexDeployment } from './deployDex'
import { dynamoLocalEndpoint } from './dynamoLocal'
import { functionEnv } from './functionEnv'
import type { PriceHistoryRun } from './seedLocalData'
import {
  historyFiller,
  planDeployments,
  prepareRun,
  serveOffline,
  type StackRun,
  startBundling,
  startDevnet,
  startDynamo,
  type StartLocalStackOptions,
  startSeeding,
} from './stackPhases'
import { secondsSince } from './processes'

/** The DEX of each devnet the stack runs: the networks it serves, and no other. */
export type ServedDeployments = Partial<Record<NetworkName, DexDeployment>>

/** A served network's deployment; fails loudly for a network the stack does not serve. */
export function servedDeployment(
  deployments: ServedDeployments,
  network: NetworkName,
): DexDeployment {
  const deployment = deployments[network]
  if (!deployment) throw new Error(`the local stack does not serve ${network} (NETWORKS)`)
  return deployment
}

export interface LocalStack {
  /** The environment the functions run with; also applied to this process. */
  env: Record<string, string>
  apiUrl?: string
  /** The WebSocket API (ws://), with serverless offline. */
  wsUrl?: string
  /** The networks it serves, in the table's order. */
  networks: NetworkName[]
  deployments: ServedDeployments
  demoAccount: { address: string; privateKey: string }
  /** The processes it started, for checks that nothing outlives `stop()`. */
  pids: number[]
  /**
   * The filling of the price history: settled when startLocalStack resolves, unless it runs
   * 'in-background'; then it rejects if the filling failed, or the stack stopped first.
   */
  priceHistory: Promise<PriceHistoryRun>
  stop(): Promise<void>
}

/** The engines started, the devnets deployed, the table seeded, then serverless offline. */
async function bringUp(run: StackRun): Promise<LocalStack> {
  const { options, progress, signal, served, ports, services, bundled } = run
  run.enginesStartedAt = performance.now()
  // The modules the rest needs (viem, the DEX artifacts, the markets: a second or more on a busy
  // machine) load while DynamoDB Local starts.
  const dynamoStart = startDynamo(run)
  const bundling = startBundling(run)
  const [
    { startAnvil },
    { planDex, DEVNET_CHAIN_IDS, ANVIL_DEPLOYER_PRIVATE_KEY },
    { startOffline },
  ] = await Promise.all([import('./anvil'), import('./deployDex'), import('./offline')])
  const anvilsStart = services.begin(
    Promise.all(
      served.map((network) => startDevnet(run, network, { startAnvil, DEVNET_CHAIN_IDS })),
    ),
  )
  // Needed once the devnets are filled: it loads while they start.
  const seed = await import('./seedLocalData')
  const nodes = await anvilsStart
  progress(
    `anvil ${served.map((network) => `${network} :${ports[network]}`).join(' / ')} … ready (${secondsSince(run.enginesStartedAt)})`,
  )
  const deployment = await planDeployments(run, nodes, dynamoStart, planDex)
  const { deployed } = deployment
  const env = {
    ...functionEnv(dynamoLocalEndpoint(ports.dynamo), deployed),
    // Where the functions that post to WebSocket connections send (offline's @connections).
    WS_ENDPOINT: `http://127.0.0.1:${ports.ws}`,
    ...options.functionEnv,
  }
  Object.assign(process.env, env)
  const seeding = startSeeding(run, deployment, seed)
  const fillHistory = historyFiller(run, seed)
  const inBackground = options.priceHistory === 'in-background'
  const historyBeforeReady = inBackground ? undefined : services.begin(seeding.then(fillHistory))
  const readyToServe = seeding.then(async () => {
    await historyBeforeReady
    if (options.offline && !bundled.bundles) progress('bundling functions for serverless offline …')
  })
  const offline = await serveOffline(run, startOffline, env, { bundling, readyToServe })
  signal?.throwIfAborted()
  // Once the API answers, where it runs in the background: the history routes fill meanwhile.
  const priceHistory =
    historyBeforeReady ??
    seeding.then((projects) => {
      progress("price history: filling from the devnets' year in the background …")
      return fillHistory(projects)
    })
  // Awaited by whoever wants it; a failure after a stop is no one's concern.
  priceHistory.catch(() => {})
  return {
    env,
    apiUrl: offline?.apiUrl,
    wsUrl: offline?.wsUrl,
    networks: served,
    deployments: Object.fromEntries(deployed.map((deployment) => [deployment.network, deployment])),
    // The same account deployed every devnet's DEX.
    demoAccount: { address: deployed[0]?.deployer ?? '', privateKey: ANVIL_DEPLOYER_PRIVATE_KEY },
    pids: services.pids(),
    priceHistory,
    stop: async () => {
      await Promise.all([services.stop(), bundled.bundles?.dispose()])
    },
  }
}

/**
 * Brings up the whole service on loopback: DynamoDB Local with the table, an anvil devnet for
 * each network it serves with the network's DEX flavours and demo catalog (lib/networks.ts), the
 * seeded networks and projects, and optionally
 * `serverless offline`. Every port is checked before anything starts (a PortsInUseError names the
 * taken ones), every wait for a process is bounded, and on any failure (or an abort) everything
 * already started is stopped again.
 */
export async function startLocalStack(options: StartLocalStackOptions = {}): Promise<LocalStack> {
  const run = await prepareRun(options)
  const { signal, services, bundled } = run
  const onAbort = () => void services.stop()
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    return await bringUp(run)
  } catch (error) {
    // Every start under way is let finish first, so the stop reaches what it started; a
    // bundling pass is disposed of too.
    await services.settle()
    await Promise.all([services.stop(), bundled.bundles?.dispose()])
    throw error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

export const DEFAULT_PERSIST_PATH = join('.data', 'dynamodb')
