import * as z from '../schemas/zod'
import { DEFAULT_NETWORK_NAMES, NETWORK_NAMES, type NetworkName } from './networkNames'
import { NETWORK_ENTRIES } from './networks'

// The only reader of process.env. Each section is parsed once, on first use, and fails with the
// variable's name, so a function reads only the settings it needs.

const nonEmpty = z.string().check(z.minLength(1))
const positiveInt = z.pipe(z.coerce.number(), z.int().check(z.positive()))
const gasUnit = z.pipe(z.coerce.number(), z.int().check(z.nonnegative(), z.maximum(10_000_000)))

/** Connector tokens a network may configure beside its base tokens (a quote reads their pools). */
export const MAX_CONNECTOR_TOKENS = 6
/** Base tokens beside the wrapped coin and the stablecoin (a quote reads the pools among them). */
export const MAX_EXTRA_BASE_TOKENS = 3

const coreSchema = z.object({
  STAGE: z._default(nonEmpty, 'local'),
  AWS_REGION: z._default(nonEmpty, 'us-east-1'),
  TABLE_NAME: nonEmpty,
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  DYNAMODB_REQUEST_TIMEOUT_MS: z._default(positiveInt, 1000),
  DYNAMODB_MAX_ATTEMPTS: z._default(positiveInt, 2),
  // Only for talking to a stand-in; deployed functions use the region's SSM endpoint.
  SSM_ENDPOINT: z.optional(z.url()),
})

const logSchema = z.object({
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']), 'INFO'),
  // Set by Lambda (and serverless offline); absent in the tests and scripts.
  AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
  AWS_LAMBDA_FUNCTION_VERSION: z.optional(z.string()),
})

const authSchema = z
  .object({
    JWT_SECRET: z.optional(z.string().check(z.minLength(32))),
    JWT_SECRET_PARAMETER: z.optional(z.string().check(z.startsWith('/'))),
    // Only for talking to a stand-in; deployed functions use the region's SSM endpoint.
    SSM_ENDPOINT: z.optional(z.url()),
    JWT_ISSUER: z._default(nonEmpty, 'wallet-backend'),
    ACCESS_TOKEN_TTL_SECONDS: z._default(positiveInt, 15 * 60),
    REFRESH_TOKEN_TTL_SECONDS: z._default(positiveInt, 30 * 24 * 60 * 60),
    SIWE_DOMAIN: z._default(nonEmpty, 'localhost:3000'),
    SIWE_URI: z._default(z.url(), 'http://localhost:3000'),
  })
  .check(
    z.refine((env) => env.JWT_SECRET ?? env.JWT_SECRET_PARAMETER, {
      message: 'set JWT_SECRET (local) or JWT_SECRET_PARAMETER (an SSM SecureString name)',
      path: ['JWT_SECRET'],
    }),
  )

const metricsSchema = z.object({
  // CloudWatch namespace of the business metrics (lib/metrics.ts); none are written without it.
  METRICS_NAMESPACE: z.optional(nonEmpty),
  METRICS_SERVICE: z._default(nonEmpty, 'wallet-backend'),
})

// DECISIONS §7.1, §9.4: per client (source IP), per minute, on the anonymous routes that cost
// work; `rpc` counts the RPC calls anonymous requests cost (quotes, contract-wallet checks).
const clientLimitSchema = z.object({
  CLIENT_LIMIT_NONCES_PER_MINUTE: z._default(positiveInt, 30),
  CLIENT_LIMIT_LOGINS_PER_MINUTE: z._default(positiveInt, 20),
  CLIENT_LIMIT_REGISTRATIONS_PER_MINUTE: z._default(positiveInt, 5),
  CLIENT_LIMIT_RPC_CALLS_PER_MINUTE: z._default(positiveInt, 300),
})

// DECISIONS §8.2: calls into contracts a caller chose (quote tokens, prepare, submit).
const untrustedCallSchema = z.object({
  UNTRUSTED_CALL_GAS: z._default(positiveInt, 3_000_000),
  UNTRUSTED_CALLS_PER_REQUEST: z._default(positiveInt, 48),
})

// DECISIONS §9.1: what one deposit indexer run may do, per network, and what is dust.
const depositSchema = z.object({
  // A token deposit worth less than this (USD, from the catalog price) is not listed.
  DEPOSIT_DUST_USD: z._default(
    z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal number of USD')),
    '0.01',
  ),
  // Deposits into known wallets a run weighs past the dust floor (look-alike checks, marker
  // reads), shared fairly among wallets: the rest of a wallet's range waits in its lag.
  DEPOSIT_RUN_TRANSFERS: z._default(positiveInt, 50_000),
  // Transfers a run reads (catalog token logs, native and internal value), checked between
  // pieces of a range: the count-based bound on its reads that keeps it within its time limit.
  DEPOSIT_RUN_READS: z._default(positiveInt, 200_000),
  // Deposits worth at least this (USD) are listed before a wallet's smaller ones.
  DEPOSIT_FIRST_USD: z._default(
    z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal number of USD')),
    '1',
  ),
  // Deposits a run records, shared fairly among the wallets that received some.
  DEPOSIT_RUN_DEPOSITS: z._default(positiveInt, 2_000),
  // The safety stop: no new window or write starts with less than this left of the invocation.
  DEPOSIT_RUN_SAFETY_MS: z._default(positiveInt, 15_000),
})

const address = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address'))

const rpcUrlList = z
  .string()
  .check(
    z.refine(
      (value) => value.split(',').every((url) => URL.canParse(url.trim())),
      'must be a URL, or comma-separated URLs',
    ),
  )

/** Whether a value is a URL or comma-separated URLs, as `<NET>_RPC_URL` and its parameter hold. */
export function isRpcUrlList(value: string): boolean {
  return rpcUrlList.safeParse(value).success
}

const V3_KEYS = [
  'V3_FACTORY',
  'V3_POOL_DEPLOYER',
  'V3_POOL_INIT_CODE_HASH',
  'V3_FEE_TIERS',
] as const

function chainSchema(prefix: Uppercase<NetworkName>) {
  return z
    .object({
      [`${prefix}_CHAIN_ID`]: positiveInt,
      // One URL, or several comma-separated: the service fails over between them, in this order.
      // Set on `local`; deployed stages name an SSM SecureString holding the same list instead.
      [`${prefix}_RPC_URL`]: z.optional(rpcUrlList),
      [`${prefix}_RPC_URL_PARAMETER`]: z.optional(z.string().check(z.startsWith('/'))),
      [`${prefix}_ROUTER`]: address,
      [`${prefix}_FACTORY`]: address,
      [`${prefix}_WRAPPED_NATIVE`]: address,
      [`${prefix}_USD_STABLECOIN`]: address,
      // Blocks a deposit or trade waits before it counts (DECISIONS §7.2: 12 on Ethereum, 15 on BNB
      // Chain in production; 0 on a devnet).
      [`${prefix}_CONFIRMATIONS`]: z._default(
        z.pipe(z.coerce.number(), z.int().check(z.nonnegative())),
        0,
      ),
      // Native coin moved by contracts (internal calls) is read from `trace_block` where the node
      // offers it; off unless set, since most hosted endpoints charge extra or refuse it.
      [`${prefix}_TRACE_INTERNAL`]: z._default(z.enum(['true', 'false']), 'false'),
      // Calls per JSON-RPC batch at most: providers cap them (more go as several POSTs at once).
      [`${prefix}_RPC_BATCH_MAX`]: z._default(positiveInt, 100),
      // The widest eth_getLogs range asked at once (providers refuse wide ones; refusals halve it).
      [`${prefix}_LOGS_MAX_BLOCKS`]: z._default(positiveInt, 2000),
      // Further tokens that routes may pass through, beside the wrapped coin and the stablecoin.
      // At most MAX_EXTRA_BASE_TOKENS: every quote reads the pools among them (DECISIONS §8.1).
      [`${prefix}_BASE_TOKENS`]: z.optional(
        z.string().check(
          z.regex(/^0x[0-9a-fA-F]{40}(,0x[0-9a-fA-F]{40})*$/, 'comma-separated addresses'),
          z.refine(
            (list) => list.split(',').length <= MAX_EXTRA_BASE_TOKENS,
            `at most ${MAX_EXTRA_BASE_TOKENS} addresses`,
          ),
        ),
      ),
      // The concentrated-liquidity DEX (DECISIONS §8.1), all four or none: without them the
      // network is V2-only. The deployer is the factory itself on Uniswap, PancakeV3PoolDeployer
      // on PancakeSwap; pools sit at CREATE2(deployer, keccak(token0, token1, fee), init code hash).
      [`${prefix}_V3_FACTORY`]: z.optional(address),
      [`${prefix}_V3_POOL_DEPLOYER`]: z.optional(address),
      [`${prefix}_V3_POOL_INIT_CODE_HASH`]: z.optional(
        z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hash')),
      ),
      [`${prefix}_V3_FEE_TIERS`]: z.optional(
        z
          .string()
          .check(z.regex(/^\d{1,6}(,\d{1,6})*$/, 'comma-separated fees in hundredths of a bip')),
      ),
      // A SwapRouter02-compatible router (V2 and V3 hops, multicall with a deadline).
      [`${prefix}_SWAP_ROUTER`]: z.optional(address),
      // Routing (DECISIONS §9.3): what the V2 DEX's pairs charge, in basis points. Unset: the
      // network table's (lib/networks.ts: Uniswap V2 30, PancakeSwap V2 25), or on the local
      // stage the devnets' (they run Uniswap V2's pair on every network: 30).
      [`${prefix}_V2_FEE_BPS`]: z.optional(
        z.pipe(z.coerce.number(), z.int().check(z.nonnegative(), z.maximum(1000))),
      ),
      // The gas model (units; see GasUnits): the network table's, fitted from devnet receipts
      // (lib/networks.ts `gas`, npm run gas:fit), unless one of these overrides a part.
      ...Object.fromEntries(
        GAS_PARTS.map((part) => [`${prefix}_GAS_PER_${gasVariable(part)}`, z.optional(gasUnit)]),
      ),
      // Tokens beside the base tokens that a quote's route may pass through (DECISIONS §8.1),
      // deepest first: at most MAX_CONNECTOR_TOKENS, so a quote's reads stay bounded.
      [`${prefix}_CONNECTOR_TOKENS`]: z.optional(
        z.string().check(
          z.regex(/^0x[0-9a-fA-F]{40}(,0x[0-9a-fA-F]{40})*$/, 'comma-separated addresses'),
          z.refine(
            (list) => list.split(',').length <= MAX_CONNECTOR_TOKENS,
            `at most ${MAX_CONNECTOR_TOKENS} addresses`,
          ),
        ),
      ),
      // DECISIONS §8.3: a node that serves state at any past block, for the price history's
      // backfill (and a sampler that fell behind). Unset: the history fills forward only. On the
      // local stage the devnet's own URL (anvil keeps every state).
      [`${prefix}_ARCHIVE_RPC_URL`]: z.optional(z.url()),
      STAGE: z._default(nonEmpty, 'local'),
    })
    .check(
      z.refine((env) => env[`${prefix}_RPC_URL`] ?? env[`${prefix}_RPC_URL_PARAMETER`], {
        message: `set ${prefix}_RPC_URL (local) or ${prefix}_RPC_URL_PARAMETER (an SSM SecureString name)`,
        path: [`${prefix}_RPC_URL`],
      }),
    )
    .check(
      z.refine(
        (env) => {
          const set = V3_KEYS.filter((key) => env[`${prefix}_${key}`] !== undefined).length
          return set === 0 || set === V3_KEYS.length
        },
        {
          message: `set all of ${V3_KEYS.map((key) => `${prefix}_${key}`).join(', ')} or none`,
          path: [`${prefix}_V3_FACTORY`],
        },
      ),
    )
}

export interface ChainConfig {
  network: NetworkName
  chainId: number
  /** The first of `rpcUrls`; empty when they come from `rpcUrlParameter`. */
  rpcUrl: string
  /** The network's RPC URLs in order of preference (DECISIONS §7.2); empty on deployed stages. */
  rpcUrls: string[]
  /** The SSM SecureString holding the comma-separated RPC URLs (deployed stages). */
  rpcUrlParameter?: string
  router: `0x${string}`
  factory: `0x${string}`
  wrappedNative: `0x${string}`
  usdStablecoin: `0x${string}`
  /** Whether the indexer reads internal native transfers from `trace_block`. */
  traceInternal: boolean
  /** The widest eth_getLogs range the indexer asks at once. */
  logsMaxBlocks: number
  /** Calls per JSON-RPC batch at most (the provider's cap). */
  rpcBatchMax: number
  /** Blocks after its own before a block's deposits and trades count (DECISIONS §7.2). */
  confirmations: number
  /** Tokens a route may pass through (DECISIONS §7.2): wrapped coin, stablecoin, then others. */
  baseTokens: `0x${string}`[]
  /** The concentrated-liquidity DEX (DECISIONS §8.1); absent on a V2-only network. */
  v3?: V3Config
  /** A SwapRouter02-compatible router taking V2 and V3 hops (`multicall(deadline, bytes[])`). */
  swapRouter?: `0x${string}`
  /** Tokens beside the base tokens a quote's route may pass through (at most MAX_CONNECTOR_TOKENS). */
  connectorTokens: `0x${string}`[]
  /** What the V2 DEX's pairs charge, in basis points (DECISIONS §9.3). */
  v2FeeBps: number
  /** Gas units the router spends, by which routes are ranked net of gas (DECISIONS §8.1, §10.2). */
  gasUnits: GasUnits
  /**
   * A node serving state at past blocks (`<NET>_ARCHIVE_RPC_URL`; the RPC URL on the local
   * stage); absent: the price history fills forward only (DECISIONS §8.3). A secret like the
   * RPC URLs: never logged.
   */
  archiveRpcUrl?: string
}

/**
 * The units the search ranks routes by (DECISIONS §8.1, §9.3): a route's gas is `route` plus each
 * hop's (`v2Call` once per run of consecutive V2 hops, `v2Hop` each; `v3Hop` each plus
 * `tickCrossed` per initialized tick it crosses); a split's is `swap` plus its routes'.
 */
export interface RouteGasUnits {
  /** Once per transaction: 21,000 intrinsic, the calldata, the multicall. */
  swap: bigint
  /** Once per route of a split: its leg of the multicall and the input's transfer in. */
  route: bigint
  /** Once per router call of consecutive V2 hops; absent: 0. */
  v2Call?: bigint
  v2Hop: bigint
  v3Hop: bigint
  /** Per initialized tick a V3 hop crosses. */
  tickCrossed: bigint
  /** Per router call after a route's first (before its refund, CLEARED_SLOT_REFUND); absent: 0. */
  routerPays?: bigint
  /** Per token a route passes through (counted once a route by the search); absent: 0. */
  connectorToken?: bigint
}

/**
 * Every part of a network's gas model (lib/networks.ts GasUnitsEntry): the search's units and
 * what the transaction's ends add (wrap, unwrap, sweep, fee-on-transfer hops, fresh balances).
 */
export interface GasUnits extends Required<RouteGasUnits> {
  wordCrossed: bigint
  wrap: bigint
  unwrap: bigint
  sweep: bigint
  feeOnTransferHop: bigint
  freshBalance: bigint
  freshAccount: bigint
}

/** The parts of the gas model, as the network table names them. */
export const GAS_PARTS = [
  'swap',
  'route',
  'v2Call',
  'v2Hop',
  'v3Hop',
  'tickCrossed',
  'wordCrossed',
  'routerPays',
  'connectorToken',
  'wrap',
  'unwrap',
  'sweep',
  'feeOnTransferHop',
  'freshBalance',
  'freshAccount',
] as const satisfies readonly (keyof GasUnits)[]

/** A part's variable suffix: `v2Hop` is `<NET>_GAS_PER_V2_HOP`. */
export function gasVariable(part: (typeof GAS_PARTS)[number]): string {
  return part.replace(/([a-z])([A-Z0-9])/g, '$1_$2').toUpperCase()
}

/** The table's units, each overridden by its `<NET>_GAS_PER_<PART>` where set. */
function gasUnitsOf(env: Record<string, string | number>, network: NetworkName): GasUnits {
  const table = NETWORK_ENTRIES[network].gas
  const prefix = network.toUpperCase()
  return Object.fromEntries(
    GAS_PARTS.map((part) => {
      const set = env[`${prefix}_GAS_PER_${gasVariable(part)}`]
      return [part, BigInt(set ?? table[part])]
    }),
  ) as unknown as GasUnits
}

export interface V3Config {
  /** Answers `getPool(tokenA, tokenB, fee)`. */
  factory: `0x${string}`
  /** The CREATE2 deployer of pools: the factory on Uniswap, PancakeV3PoolDeployer on PancakeSwap. */
  poolDeployer: `0x${string}`
  poolInitCodeHash: `0x${string}`
  /** Fees in hundredths of a bip (500 = 0.05 %), as the factory enables them. */
  feeTiers: number[]
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function parseEnv<Schema extends z.ZodMiniType>(schema: Schema): z.infer<Schema> {
  // serverless.yml writes '' for a setting a stage does not use; that means "not set".
  const env = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''))
  const parsed = schema.safeParse(env)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`)
}

function memoize<Value>(load: () => Value): () => Value {
  let value: Value | undefined
  return () => (value ??= load())
}

export const loadCoreConfig = memoize(() => {
  const env = parseEnv(coreSchema)
  return {
    stage: env.STAGE,
    region: env.AWS_REGION,
    tableName: env.TABLE_NAME,
    dynamoEndpoint: env.DYNAMODB_ENDPOINT,
    dynamoRequestTimeoutMs: env.DYNAMODB_REQUEST_TIMEOUT_MS,
    dynamoMaxAttempts: env.DYNAMODB_MAX_ATTEMPTS,
    ssmEndpoint: env.SSM_ENDPOINT,
  }
})

export const loadLogConfig = memoize(() => {
  const env = parseEnv(logSchema)
  return {
    logLevel: env.LOG_LEVEL,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
  }
})

/**
 * The X-Ray trace header of the invocation running now (`Root=1-…;Parent=…;Sampled=…`): Lambda
 * sets it anew for each invocation, so it is read each time rather than parsed once.
 */
export function currentTraceHeader(): string | undefined {
  return process.env._X_AMZN_TRACE_ID
}

export const loadAuthConfig = memoize(() => {
  const env = parseEnv(authSchema)
  return {
    jwtSecret: env.JWT_SECRET,
    jwtSecretParameter: env.JWT_SECRET_PARAMETER,
    ssmEndpoint: env.SSM_ENDPOINT,
    issuer: env.JWT_ISSUER,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    siweDomain: env.SIWE_DOMAIN,
    siweUri: env.SIWE_URI,
  }
})

export const loadMetricsConfig = memoize(() => {
  const env = parseEnv(metricsSchema)
  return { namespace: env.METRICS_NAMESPACE, service: env.METRICS_SERVICE }
})

export type ClientLimitName = 'nonce' | 'login' | 'register' | 'rpc'

export const loadClientLimitConfig = memoize((): Record<ClientLimitName, number> => {
  const env = parseEnv(clientLimitSchema)
  return {
    nonce: env.CLIENT_LIMIT_NONCES_PER_MINUTE,
    login: env.CLIENT_LIMIT_LOGINS_PER_MINUTE,
    register: env.CLIENT_LIMIT_REGISTRATIONS_PER_MINUTE,
    rpc: env.CLIENT_LIMIT_RPC_CALLS_PER_MINUTE,
  }
})

export const loadUntrustedCallConfig = memoize(() => {
  const env = parseEnv(untrustedCallSchema)
  return {
    /** The `gas` of each call whose target a caller chose. */
    gasPerCall: BigInt(env.UNTRUSTED_CALL_GAS),
    /** Such calls one request may make. */
    callsPerRequest: env.UNTRUSTED_CALLS_PER_REQUEST,
  }
})

export const loadDepositConfig = memoize(() => {
  const env = parseEnv(depositSchema)
  return {
    /** USD, as a decimal string (exact: compared in integers). */
    dustUsd: env.DEPOSIT_DUST_USD,
    runTransfers: env.DEPOSIT_RUN_TRANSFERS,
    runReads: env.DEPOSIT_RUN_READS,
    /** USD, as a decimal string: deposits worth this or more go first. */
    firstUsd: env.DEPOSIT_FIRST_USD,
    runDeposits: env.DEPOSIT_RUN_DEPOSITS,
    runSafetyMs: env.DEPOSIT_RUN_SAFETY_MS,
  }
})

const chainLoaders = Object.fromEntries(
  NETWORK_NAMES.map((network) => {
    const prefix = network.toUpperCase() as Uppercase<NetworkName>
    const load = memoize((): ChainConfig => {
      const env = parseEnv(chainSchema(prefix)) as Record<string, string | number>
      return {
        network,
        chainId: Number(env[`${prefix}_CHAIN_ID`]),
        rpcUrl: rpcUrlsOf(env[`${prefix}_RPC_URL`])[0] ?? '',
        rpcUrls: rpcUrlsOf(env[`${prefix}_RPC_URL`]),
        rpcUrlParameter: env[`${prefix}_RPC_URL_PARAMETER`] as string | undefined,
        router: String(env[`${prefix}_ROUTER`]) as `0x${string}`,
        factory: String(env[`${prefix}_FACTORY`]) as `0x${string}`,
        wrappedNative: String(env[`${prefix}_WRAPPED_NATIVE`]) as `0x${string}`,
        usdStablecoin: String(env[`${prefix}_USD_STABLECOIN`]) as `0x${string}`,
        confirmations: Number(env[`${prefix}_CONFIRMATIONS`]),
        logsMaxBlocks: Number(env[`${prefix}_LOGS_MAX_BLOCKS`]),
        rpcBatchMax: Number(env[`${prefix}_RPC_BATCH_MAX`]),
        traceInternal: env[`${prefix}_TRACE_INTERNAL`] === 'true',
        baseTokens: baseTokensOf(
          env[`${prefix}_WRAPPED_NATIVE`],
          env[`${prefix}_USD_STABLECOIN`],
          env[`${prefix}_BASE_TOKENS`],
        ),
        v3: v3Of(env, prefix),
        swapRouter: env[`${prefix}_SWAP_ROUTER`] as `0x${string}` | undefined,
        connectorTokens: baseTokensOf(env[`${prefix}_CONNECTOR_TOKENS`]),
        v2FeeBps: v2FeeBpsOf(env, network),
        gasUnits: gasUnitsOf(env, network),
        archiveRpcUrl: archiveRpcUrlOf(env, prefix),
      }
    })
    return [network, load]
  }),
) as Record<NetworkName, () => ChainConfig>

export function rpcUrlsOf(list: string | number | undefined): string[] {
  return String(list ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '')
}

function baseTokensOf(...lists: Array<string | number | undefined>): `0x${string}`[] {
  const addresses = lists.flatMap((list) => (list === undefined ? [] : String(list).split(',')))
  const unique = new Map(addresses.map((address) => [address.toLowerCase(), address]))
  return [...unique.values()] as `0x${string}`[]
}

function archiveRpcUrlOf(env: Record<string, string | number>, prefix: string): string | undefined {
  const url = env[`${prefix}_ARCHIVE_RPC_URL`]
  if (url !== undefined) return String(url)
  return env.STAGE === 'local' ? rpcUrlsOf(env[`${prefix}_RPC_URL`])[0] : undefined
}

/** Uniswap V2's pair, which the local devnets deploy on every network (lib/local/deployDex.ts). */
const DEVNET_V2_FEE_BPS = 30

function v2FeeBpsOf(env: Record<string, string | number>, network: NetworkName): number {
  const set = env[`${network.toUpperCase()}_V2_FEE_BPS`]
  if (set !== undefined) return Number(set)
  return env.STAGE === 'local' ? DEVNET_V2_FEE_BPS : NETWORK_ENTRIES[network].deployed.v2.feeBps
}

function v3Of(env: Record<string, string | number>, prefix: string): V3Config | undefined {
  const factory = env[`${prefix}_V3_FACTORY`]
  if (factory === undefined) return undefined
  return {
    factory: String(factory) as `0x${string}`,
    poolDeployer: String(env[`${prefix}_V3_POOL_DEPLOYER`]) as `0x${string}`,
    poolInitCodeHash: String(env[`${prefix}_V3_POOL_INIT_CODE_HASH`]) as `0x${string}`,
    feeTiers: String(env[`${prefix}_V3_FEE_TIERS`]).split(',').map(Number),
  }
}

// DECISIONS §9.5: which networks of the table a stage serves (its routes, schedules, balances).
const servedNetworksSchema = z.object({
  NETWORKS: z._default(
    z
      .string()
      .check(
        z.refine(
          (list) =>
            list.split(',').every((name) => (NETWORK_NAMES as string[]).includes(name.trim())),
          `comma-separated names of the network table: ${NETWORK_NAMES.join(', ')}`,
        ),
      ),
    DEFAULT_NETWORK_NAMES.join(','),
  ),
})

/** The networks this stage serves (NETWORKS), in the table's order. */
export const loadServedNetworks = memoize((): NetworkName[] => {
  const named = parseEnv(servedNetworksSchema)
    .NETWORKS.split(',')
    .map((name) => name.trim())
  return NETWORK_NAMES.filter((network) => named.includes(network))
})

export function loadChainConfig(network: NetworkName): ChainConfig {
  return chainLoaders[network]()
}
