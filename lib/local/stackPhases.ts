// The phases of a local stack's start (lib/local/localStack.ts runs them in order), and what
// each reads.
import type { BackfilledProject } from '../markets/backfillPriceHistory'
import { DEFAULT_NETWORK_NAMES, NETWORK_NAMES, type NetworkName } from '../networkNames'
import { NETWORK_ENTRIES } from '../networks'
import type { startAnvil as StartAnvil } from './anvil'
import type { FunctionBundles } from './bundleFunctions'
import { assertPortsFree } from './checkPorts'
import type {
  DEVNET_CHAIN_IDS as DevnetChainIds,
  DexDeployment,
  planDex as PlanDex,
} from './deployDex'
import { checkJava, startDynamoLocal } from './dynamoLocal'
import { createTable } from './localTable'
import type { startOffline as StartOffline } from './offline'
import { secondsSince, withinLimit } from './processes'
import type { PriceHistoryRun } from './seedLocalData'
import { type StackServices, stackServices } from './stackServices'
import { type StackPhase, stackLimits } from './stackLimits'
import { choosePorts, type LocalStackPorts, wantedPorts } from './stackPorts'

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

export type SeedModule = typeof import('./seedLocalData')

/** What every phase of a start reads: its options, limits, networks, ports and services. */
export interface StackRun {
  options: StartLocalStackOptions
  progress: (line: string) => void
  signal?: AbortSignal
  limits: ReturnType<typeof stackLimits>
  served: NetworkName[]
  ports: LocalStackPorts
  services: StackServices
  /** The functions' bundles once written (serverless offline only), disposed of on stop. */
  bundled: { bundles?: FunctionBundles }
  enginesStartedAt: number
}

/** The networks served, in the table's order, and the ports, each checked free; Java there. */
export async function prepareRun(options: StartLocalStackOptions): Promise<StackRun> {
  const progress = options.progress ?? (() => {})
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
  const { signal } = options
  const services = stackServices(signal)
  return {
    options,
    progress,
    signal,
    limits,
    served,
    ports,
    services,
    bundled: {},
    enginesStartedAt: 0,
  }
}

/** DynamoDB Local, the slowest engine to start, spawned first. */
export function startDynamo({
  options,
  ports,
  limits,
  signal,
  services,
  progress,
  enginesStartedAt,
}: StackRun) {
  return services.begin(
    startDynamoLocal({
      port: ports.dynamo,
      persistPath: options.persistPath,
      readyTimeoutMs: limits.dynamo,
      signal,
    }).then((dynamo) => {
      progress(`DynamoDB Local on :${ports.dynamo} … ready (${secondsSince(enginesStartedAt)})`)
      return services.track(dynamo)
    }),
  )
}

/** The functions bundled for serverless offline (while the engines start: neither needs the other). */
export function startBundling({
  options,
  limits,
  services,
  progress,
  bundled,
  enginesStartedAt,
}: StackRun) {
  if (!options.offline) return undefined
  return services.begin(
    withinLimit(
      'bundling the functions for serverless offline',
      limits.bundle,
      import('./bundleFunctions')
        .then(({ bundleFunctions }) =>
          bundleFunctions({
            watch: options.watch,
            onRebuildError: (message) => progress(`rebuilding the functions failed: ${message}`),
          }),
        )
        .then((built) => {
          bundled.bundles = built
          progress(
            `${built.count} functions ${built.reused ? 'unchanged since the last bundling, bundles reused' : 'bundled in one esbuild pass'} (${secondsSince(enginesStartedAt)})`,
          )
          return built
        }),
    ),
  )
}

/** An anvil devnet for `network`, tracked once it answers. */
export async function startDevnet(
  { ports, limits, signal, services }: StackRun,
  network: NetworkName,
  modules: { startAnvil: typeof StartAnvil; DEVNET_CHAIN_IDS: typeof DevnetChainIds },
) {
  const node = await services.begin(
    modules
      .startAnvil({
        port: ports[network],
        chainId: modules.DEVNET_CHAIN_IDS[network],
        baseFeeWei: NETWORK_ENTRIES[network].devnet.baseFeeWei,
        readyTimeoutMs: limits.anvil,
        signal,
      })
      .then(services.track),
  )
  return { network, rpcUrl: node.rpcUrl, chainId: node.chainId }
}

/**
 * Every address of the deployments, known before a transaction is sent, so serverless offline
 * (seconds of loading serverless.yml and its plugins) starts as soon as they are, while DynamoDB
 * Local comes up, the devnets are filled and the table is seeded: the functions get the
 * environment they would get once all that is done. `deploying` settles when the DEX are
 * deployed and the table created.
 */
export async function planDeployments(
  { services, limits }: StackRun,
  nodes: Array<Parameters<typeof PlanDex>[0]>,
  dynamoStart: Promise<{ endpoint: string }>,
  planDex: typeof PlanDex,
) {
  const deployStartedAt = performance.now()
  const planning = services.begin(Promise.all(nodes.map((node) => planDex(node))))
  // One limit for the whole phase: planning, sending, and creating the table once DynamoDB
  // Local answers (its start has a limit of its own).
  const deploying = services.begin(
    withinLimit(
      'deploying the DEX and token zoo',
      limits.deploy,
      Promise.all([
        planning.then((plans) => Promise.all(plans.map((plan) => plan.send()))),
        dynamoStart.then((dynamo) => createTable(dynamo.endpoint, undefined, { stream: true })),
      ]),
    ),
  )
  // The plan, or the phase's failure if that comes first (its limit ran out).
  const plans = await Promise.race([planning, deploying.then(() => planning)])
  return { deploying, deployStartedAt, deployed: plans.map((plan) => plan.deployment) }
}

/** A phase's limit, for two networks, with half of it added for each further one. */
export const perNetworks = ({ served }: StackRun, limit: number) =>
  (limit * Math.max(2, served.length)) / 2

/** The table seeded once the devnets are deployed: each devnet's catalog and year of trades. */
export function startSeeding(
  run: StackRun,
  deployment: { deploying: Promise<unknown>; deployStartedAt: number; deployed: DexDeployment[] },
  seed: SeedModule,
) {
  const { progress, signal, served, services, limits } = run
  const { deploying, deployStartedAt, deployed } = deployment
  return services.begin(
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
        perNetworks(run, limits.seed),
        seed.seedLocalData(deployed),
      )
      progress(
        `table seeded (${deployed.length} networks, ${projects.length} projects, demo data) (${secondsSince(seedStartedAt)})`,
      )
      return projects
    }),
  )
}

/** Fills the price history of the seeded projects, within its limit. */
export const historyFiller =
  (run: StackRun, seed: SeedModule) => (projects: readonly BackfilledProject[]) => {
    const startedAt = performance.now()
    return withinLimit(
      'filling the price history',
      perNetworks(run, run.limits.history),
      seed.fillPriceHistory(projects),
    ).then((result) => {
      run.progress(
        `price history filled (${describeHistoryRun(result)}) (${secondsSince(startedAt)})`,
      )
      return result
    })
  }

/**
 * serverless offline, asked for a route only once the bundles are written and the table seeded
 * (`readyToServe`); undefined without it. The seeding's failure first: an offline stopped
 * because of it says less.
 */
export async function serveOffline(
  { options, ports, limits, signal, services, progress }: StackRun,
  startOffline: typeof StartOffline,
  env: Record<string, string>,
  readyAfter: { bundling?: Promise<FunctionBundles>; readyToServe: Promise<void> },
) {
  const offlineStartedAt = performance.now()
  const offlineStart = options.offline
    ? services.begin(
        startOffline({
          httpPort: ports.http,
          websocketPort: ports.ws,
          lambdaPort: ports.lambda,
          env,
          output: options.output,
          readyTimeoutMs: limits.offline,
          prebuilt: true,
          readyAfter: Promise.all([readyAfter.bundling, readyAfter.readyToServe]),
          signal,
        }).then(services.track),
      )
    : undefined
  await readyAfter.readyToServe
  const offline = await offlineStart
  if (offline) progress(`listening on ${offline.apiUrl} (${secondsSince(offlineStartedAt)})`)
  return offline
}

function describeHistoryRun({ buckets, market }: PriceHistoryRun): string {
  const retried = market.retried > 0 ? ` (${market.retried} on a retry)` : ''
  const failed =
    market.failed.length > 0
      ? `, ${market.failed.length} failed after ${market.attempts} tries (${market.failed[0]?.reason ?? ''})`
      : ''
  return `${buckets} buckets; ${market.sampled} prices sampled${retried}${failed}`
}
