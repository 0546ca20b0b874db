import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { MAX_CONNECTOR_TOKENS } from '../config'
import { DEFAULT_NETWORK_NAMES, NETWORK_NAMES, NETWORKS, type NetworkName } from '../networkNames'
import { NETWORK_ENTRIES } from '../networks'
import { TTL_ATTRIBUTE, tableDefinition } from '../db/tableSchema'
import type { AnvilNode } from './anvil'
import { assertPortsFree, type WantedPort } from './checkPorts'
import type { DexDeployment } from './deployDex'
import { checkJava, type DynamoLocal, dynamoLocalEndpoint, startDynamoLocal } from './dynamoLocal'
import { findFreePort } from './findFreePort'
import type { FunctionBundles } from './bundleFunctions'
import type { Offline } from './offline'
import { secondsSince, withinLimit } from './processes'
import type { BackfilledProject } from '../markets/backfillPriceHistory'
import type { PriceHistoryRun } from './seedLocalData'
import { type StackPhase, stackLimits } from './stackLimits'

export const LOCAL_TABLE_NAME = 'wallet-backend-local'

/** DynamoDB Local, serverless offline's HTTP and Lambda ports, and a devnet per network. */
export type LocalStackPorts = { dynamo: number; http: number; lambda: number } & Record<
  NetworkName,
  number
>

export const DEFAULT_PORTS: LocalStackPorts = {
  dynamo: 8000,
  // Each devnet's port is its entry's in the network table (lib/networks.ts).
  ...(Object.fromEntries(
    NETWORK_NAMES.map((network) => [network, NETWORKS[network].devnet.port]),
  ) as Record<NetworkName, number>),
  http: 3000,
  lambda: 3002,
}

export interface StartLocalStackOptions {
  /**
   * The networks it serves (NETWORKS, DECISIONS §9.5): a devnet each, their routes and settings;
   * the interface's two unless given (`npm start -- --networks ...`).
   */
  networks?: readonly NetworkName[]
  /** Fixed ports, or 'free' to let the OS choose (tests). */
  ports?: LocalStackPorts | 'free'
  /** Keep DynamoDB data in this folder instead of memory. */
  persistPath?: string
  /** Also run `serverless offline` (routes and schedules). */
  offline?: boolean
  /** serverless offline's own output once it answers (request lines), redacted. */
  output?: (line: string) => void
  /** One line per phase as the stack comes up (npm start prints them; the tests stay quiet). */
  progress?: (line: string) => void
  /**
   * How long each phase may take, over the defaults and the LOCAL_TIMEOUT_<PHASE>_S variables
   * (lib/local/stackLimits.ts); the defaults suit a busy machine.
   */
  readyTimeoutMs?: Partial<Record<StackPhase, number>>
  /** Rebuild the functions on every source change, and offline reloads them (npm start). */
  watch?: boolean
  /** Extra function environment over the local stage's (the suite's raised per-IP budgets). */
  functionEnv?: Record<string, string>
  /** Aborting stops everything already started and rejects (Ctrl-C while it comes up). */
  signal?: AbortSignal
  /**
   * When the table's price history is filled from the devnets' year (lib/local/seedLocalData.ts,
   * `fillPriceHistory`): before the stack is ready (the default: the tests and the bench find it
   * whole), or once the API answers ('in-background': npm start; `priceHistory` tells when).
   */
  priceHistory?: 'before-ready' | 'in-background'
}

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

async function choosePorts(ports: StartLocalStackOptions['ports']): Promise<LocalStackPorts> {
  return ports === 'free' ? freeStackPorts() : (ports ?? DEFAULT_PORTS)
}

/** A free port for each engine and server of the stack. */
export async function freeStackPorts(): Promise<LocalStackPorts> {
  const [dynamo, http, lambda, devnets] = await Promise.all([
    findFreePort(),
    findFreePort(),
    findFreePort(),
    Promise.all(NETWORK_NAMES.map(async (network) => [network, await findFreePort()] as const)),
  ])
  return { dynamo, http, lambda, ...(Object.fromEntries(devnets) as Record<NetworkName, number>) }
}

/** Every port the stack binds, on the address its service binds, with what wants it. */
export function wantedPorts(
  ports: LocalStackPorts,
  offline: boolean,
  networks: readonly NetworkName[] = DEFAULT_NETWORK_NAMES,
): WantedPort[] {
  return [
    // DynamoDB Local's jar has no bind option: it takes the port on every interface.
    { port: ports.dynamo, service: 'DynamoDB Local' },
    ...networks.map((network) => ({
      port: ports[network],
      host: '127.0.0.1',
      service: `anvil (${network} devnet)`,
    })),
    ...(offline
      ? [
          { port: ports.http, host: '127.0.0.1', service: 'serverless offline (HTTP API)' },
          { port: ports.lambda, host: '127.0.0.1', service: 'serverless offline (lambda invoke)' },
        ]
      : []),
  ]
}

/** Creates the table (with its TTL) at a DynamoDB Local endpoint; an existing one is kept. */
export async function createTable(endpoint: string, tableName = LOCAL_TABLE_NAME): Promise<void> {
  // Loaded here, not with this module: npm start spawns DynamoDB Local before the SDK loads.
  const { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } =
    await import('@aws-sdk/client-dynamodb')
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // Bounded, so a database that stopped answering fails the start instead of hanging it.
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
  })
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)))
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    )
  } catch (error) {
    // A persisted database already has the table.
    if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error
  } finally {
    client.destroy()
  }
}

function functionEnv(endpoint: string, deployments: DexDeployment[]): Record<string, string> {
  const chainEnv = (prefix: string, deployment: DexDeployment) => ({
    [`${prefix}_CHAIN_ID`]: String(deployment.chainId),
    [`${prefix}_RPC_URL`]: deployment.rpcUrl,
    [`${prefix}_ROUTER`]: deployment.router,
    [`${prefix}_FACTORY`]: deployment.factory,
    [`${prefix}_WRAPPED_NATIVE`]: deployment.wrappedNative,
    [`${prefix}_USD_STABLECOIN`]: deployment.usdStablecoin,
    [`${prefix}_V3_FACTORY`]: deployment.v3.factory,
    [`${prefix}_V3_POOL_DEPLOYER`]: deployment.v3.poolDeployer,
    [`${prefix}_V3_POOL_INIT_CODE_HASH`]: deployment.v3.poolInitCodeHash,
    [`${prefix}_V3_FEE_TIERS`]: deployment.v3.feeTiers.join(','),
    [`${prefix}_SWAP_ROUTER`]: deployment.swapRouter,
    // The demo catalog's tokens connect routes (LINK on ethereum, CAKE on altchain).
    [`${prefix}_CONNECTOR_TOKENS`]: [...deployment.tokens, ...deployment.v3OnlyTokens]
      .slice(0, MAX_CONNECTOR_TOKENS)
      .map((token) => token.address)
      .join(','),
  })
  return {
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    TABLE_NAME: LOCAL_TABLE_NAME,
    DYNAMODB_ENDPOINT: endpoint,
    // A fresh secret per start: local tokens never outlive the stack that issued them.
    JWT_SECRET: randomBytes(32).toString('hex'),
    NETWORKS: deployments.map((deployment) => deployment.network).join(','),
    ...Object.fromEntries(
      deployments.flatMap((deployment) =>
        Object.entries(chainEnv(deployment.network.toUpperCase(), deployment)),
      ),
    ),
  }
}

type Service = DynamoLocal | AnvilNode | Offline

/**
 * Brings up the whole service on loopback: DynamoDB Local with the table, an anvil devnet for
 * each network it serves with the network's DEX flavours and demo catalog (lib/networks.ts), the
 * seeded networks and projects, and optionally
 * `serverless offline`. Every port is checked before anything starts (a PortsInUseError names the
 * taken ones), every wait for a process is bounded, and on any failure (or an abort) everything
 * already started is stopped again.
 */
export async function startLocalStack(options: StartLocalStackOptions = {}): Promise<LocalStack> {
  const progress = options.progress ?? (() => {})
  const { signal } = options
  const limits = stackLimits(options.readyTimeoutMs)
  // In the table's order, whatever order they were named in.
  const served = NETWORK_NAMES.filter((network) =>
    (options.networks ?? DEFAULT_NETWORK_NAMES).includes(network),
  )
  if (served.length === 0) throw new Error('the local stack serves at least one network')
  const ports = await choosePorts(options.ports)
  const wanted = wantedPorts(ports, options.offline ?? false, served)
  await assertPortsFree(wanted)
  progress(`ports ${wanted.map(({ port }) => port).join(', ')} free`)
  checkJava()

  const started: Service[] = []
  const stopping: Array<Promise<void>> = []
  // Every call waits for every stop begun so far, so an early abort's stop is awaited as well.
  const stop = async () => {
    stopping.push(...started.splice(0).map((service) => service.stop()))
    await Promise.all(stopping)
  }
  const track = <Started extends Service>(service: Started) => {
    started.push(service)
    // Started after an abort (its wait won the race): stopped with the rest.
    if (signal?.aborted) void stop()
    return service
  }
  // Every start still under way, each settled before a failure stops what started: an engine
  // that comes up after the failure is stopped too, not left running.
  const starting: Array<Promise<unknown>> = []
  const begin = <Result>(work: Promise<Result>): Promise<Result> => {
    starting.push(work)
    // Awaited where used, or settled on failure: never an unhandled rejection meanwhile.
    work.catch(() => {})
    return work
  }
  const onAbort = () => void stop()
  signal?.addEventListener('abort', onAbort, { once: true })
  let bundles: FunctionBundles | undefined
  try {
    const enginesStartedAt = performance.now()
    // DynamoDB Local, the slowest engine to start, is spawned first; the modules the rest needs
    // (viem, the DEX artifacts, the markets: a second or more on a busy machine) load meanwhile.
    const dynamoStart = begin(
      startDynamoLocal({
        port: ports.dynamo,
        persistPath: options.persistPath,
        readyTimeoutMs: limits.dynamo,
        signal,
      }).then((dynamo) => {
        progress(`DynamoDB Local on :${ports.dynamo} … ready (${secondsSince(enginesStartedAt)})`)
        return track(dynamo)
      }),
    )
    // The functions are bundled while the engines start: neither needs the other.
    const bundling = options.offline
      ? begin(
          withinLimit(
            'bundling the functions for serverless offline',
            limits.bundle,
            import('./bundleFunctions')
              .then(({ bundleFunctions }) =>
                bundleFunctions({
                  watch: options.watch,
                  onRebuildError: (message) =>
                    progress(`rebuilding the functions failed: ${message}`),
                }),
              )
              .then((built) => {
                bundles = built
                progress(
                  `${built.count} functions ${built.reused ? 'unchanged since the last bundling, bundles reused' : 'bundled in one esbuild pass'} (${secondsSince(enginesStartedAt)})`,
                )
                return built
              }),
          ),
        )
      : undefined
    const [
      { startAnvil },
      { planDex, DEVNET_CHAIN_IDS, ANVIL_DEPLOYER_PRIVATE_KEY },
      { startOffline },
    ] = await Promise.all([import('./anvil'), import('./deployDex'), import('./offline')])
    const anvil = async (network: NetworkName) => {
      const node = await begin(
        startAnvil({
          port: ports[network],
          chainId: DEVNET_CHAIN_IDS[network],
          baseFeeWei: NETWORK_ENTRIES[network].devnet.baseFeeWei,
          readyTimeoutMs: limits.anvil,
          signal,
        }).then(track),
      )
      return { network, rpcUrl: node.rpcUrl, chainId: node.chainId }
    }
    const anvilsStart = begin(Promise.all(served.map(anvil)))
    // Needed once the devnets are filled: it loads while they start.
    const seed = await import('./seedLocalData')
    const nodes = await anvilsStart
    progress(
      `anvil ${served.map((network) => `${network} :${ports[network]}`).join(' / ')} … ready (${secondsSince(enginesStartedAt)})`,
    )

    // Every address of both deployments is known before a transaction is sent, so serverless
    // offline (seconds of loading serverless.yml and its plugins) starts as soon as they are,
    // while DynamoDB Local comes up, the devnets are filled and the table is seeded: the
    // functions get the environment they would get once all that is done.
    const deployStartedAt = performance.now()
    const planning = begin(Promise.all(nodes.map((node) => planDex(node))))
    // One limit for the whole phase: planning, sending, and creating the table once DynamoDB
    // Local answers (its start has a limit of its own).
    const deploying = begin(
      withinLimit(
        'deploying the DEX and token zoo',
        limits.deploy,
        Promise.all([
          planning.then((plans) => Promise.all(plans.map((plan) => plan.send()))),
          dynamoStart.then((dynamo) => createTable(dynamo.endpoint)),
        ]),
      ),
    )
    // The plan, or the phase's failure if that comes first (its limit ran out).
    const plans = await Promise.race([planning, deploying.then(() => planning)])
    const deployed = plans.map((plan) => plan.deployment)
    const deployments: ServedDeployments = Object.fromEntries(
      deployed.map((deployment) => [deployment.network, deployment]),
    )
    const env = {
      ...functionEnv(dynamoLocalEndpoint(ports.dynamo), deployed),
      ...options.functionEnv,
    }
    Object.assign(process.env, env)

    /** A phase's limit, for two networks, with half of it added for each further one. */
    const perNetworks = (limit: number) => (limit * Math.max(2, served.length)) / 2
    const seeding = begin(
      deploying.then(async () => {
        progress(
          `DEX and token zoo deployed (${served.join(', ')}) (${secondsSince(deployStartedAt)})`,
        )
        signal?.throwIfAborted()
        const seedStartedAt = performance.now()
        const projects = await withinLimit(
          'seeding the table',
          // Each devnet's catalog and year of trades are seeded side by side on the same cores:
          // the limit is for the interface's two networks, and each further one adds half of it.
          perNetworks(limits.seed),
          seed.seedLocalData(deployed),
        )
        progress(
          `table seeded (${deployed.length} networks, ${projects.length} projects, demo data) (${secondsSince(seedStartedAt)})`,
        )
        return projects
      }),
    )
    const fillHistory = (projects: readonly BackfilledProject[]) => {
      const startedAt = performance.now()
      return withinLimit(
        'filling the price history',
        perNetworks(limits.history),
        seed.fillPriceHistory(projects),
      ).then((run) => {
        progress(`price history filled (${describeHistoryRun(run)}) (${secondsSince(startedAt)})`)
        return run
      })
    }
    const inBackground = options.priceHistory === 'in-background'
    const historyBeforeReady = inBackground ? undefined : begin(seeding.then(fillHistory))
    const readyToServe = seeding.then(async () => {
      await historyBeforeReady
      if (options.offline && !bundles) progress('bundling functions for serverless offline …')
    })
    // It is asked for a route only once the bundles are written and the table seeded.
    const offlineStartedAt = performance.now()
    const offlineStart = options.offline
      ? begin(
          startOffline({
            httpPort: ports.http,
            lambdaPort: ports.lambda,
            env,
            output: options.output,
            readyTimeoutMs: limits.offline,
            prebuilt: true,
            readyAfter: Promise.all([bundling, readyToServe]),
            signal,
          }).then(track),
        )
      : undefined
    // The seeding's failure first: an offline stopped because of it says less.
    await readyToServe
    const offline = await offlineStart
    if (offline) progress(`listening on ${offline.apiUrl} (${secondsSince(offlineStartedAt)})`)
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
      networks: served,
      deployments,
      demoAccount: {
        // The same account deployed every devnet's DEX.
        address: deployed[0]?.deployer ?? '',
        privateKey: ANVIL_DEPLOYER_PRIVATE_KEY,
      },
      pids: started.map((service) => service.pid),
      priceHistory,
      stop: async () => {
        await Promise.all([stop(), bundles?.dispose()])
      },
    }
  } catch (error) {
    // Every start under way is let finish first, so the stop reaches what it started; a
    // bundling pass is disposed of too.
    await Promise.allSettled(starting)
    await Promise.all([stop(), bundles?.dispose()])
    throw error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

function describeHistoryRun({ buckets, market }: PriceHistoryRun): string {
  const retried = market.retried > 0 ? ` (${market.retried} on a retry)` : ''
  const failed =
    market.failed.length > 0
      ? `, ${market.failed.length} failed after ${market.attempts} tries (${market.failed[0]?.reason ?? ''})`
      : ''
  return `${buckets} buckets; ${market.sampled} prices sampled${retried}${failed}`
}

export const DEFAULT_PERSIST_PATH = join('.data', 'dynamodb')
