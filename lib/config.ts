import * as z from '../schemas/zod'
import { ConfigError, memoize, parseEnv, readVariable } from './config/readEnv'
import {
  chainSchema,
  isRpcUrlList,
  MAX_CONNECTOR_TOKENS,
  MAX_EXTRA_BASE_TOKENS,
} from './config/chainSchema'
import {
  GAS_PARTS,
  type GasUnits,
  gasUnitsOf,
  l1FeeOracleOf,
  type RouteGasUnits,
} from './config/gasUnits'
import { networkSettings } from './config/networkSettings'
import { NETWORK_NAMES, type NetworkName, parseServedNetworks } from './networkNames'

// The configuration, read from process.env (lib/config/readEnv.ts) and, for a network, from its
// entry in the network table (lib/config/networkSettings.ts): each section is parsed once, on
// first use, and fails with the variable's name. Sign-in and the deposit indexer have sections
// of their own (lib/config/authConfig.ts, lib/config/depositConfig.ts).

const nonEmpty = z.string().check(z.minLength(1))
const positiveInt = z.pipe(z.coerce.number(), z.int().check(z.positive()))

// Kept importable from here, where their users import the rest of the configuration.
export { GAS_PARTS, isRpcUrlList, MAX_CONNECTOR_TOKENS, MAX_EXTRA_BASE_TOKENS }
export type { GasUnits, RouteGasUnits }

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
  /** An L2's GasPriceOracle: its L1 data fee is added to a quote's gas cost (DECISIONS §10.2). */
  l1FeeOracle?: `0x${string}`
  /**
   * A node serving state at past blocks (`<NET>_ARCHIVE_RPC_URL`; the RPC URL on the local
   * stage); absent: the price history fills forward only (DECISIONS §8.3). A secret like the
   * RPC URLs: never logged.
   */
  archiveRpcUrl?: string
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

const chainLoaders = new Map<NetworkName, () => ChainConfig>()

/** A network's settings: its table entry (for this stage), each overridden by its `<NET>_*`. */
function loadChain(network: NetworkName): ChainConfig {
  const prefix = network.toUpperCase() as Uppercase<NetworkName>
  const defaults = networkSettings(network, readVariable('STAGE') ?? 'local')
  const env = parseEnv(chainSchema(prefix), defaults) as Record<string, string | number>
  const setting = (name: string) => env[`${prefix}_${name}`]
  return {
    network,
    chainId: Number(setting('CHAIN_ID')),
    rpcUrl: rpcUrlsOf(setting('RPC_URL'))[0] ?? '',
    rpcUrls: rpcUrlsOf(setting('RPC_URL')),
    rpcUrlParameter: setting('RPC_URL_PARAMETER') as string | undefined,
    router: String(setting('ROUTER')) as `0x${string}`,
    factory: String(setting('FACTORY')) as `0x${string}`,
    wrappedNative: String(setting('WRAPPED_NATIVE')) as `0x${string}`,
    usdStablecoin: String(setting('USD_STABLECOIN')) as `0x${string}`,
    confirmations: Number(setting('CONFIRMATIONS')),
    logsMaxBlocks: Number(setting('LOGS_MAX_BLOCKS')),
    rpcBatchMax: Number(setting('RPC_BATCH_MAX')),
    traceInternal: setting('TRACE_INTERNAL') === 'true',
    baseTokens: baseTokensOf(
      setting('WRAPPED_NATIVE'),
      setting('USD_STABLECOIN'),
      setting('BASE_TOKENS'),
    ),
    v3: v3Of(env, prefix),
    swapRouter: setting('SWAP_ROUTER') as `0x${string}` | undefined,
    connectorTokens: baseTokensOf(setting('CONNECTOR_TOKENS')),
    v2FeeBps: Number(setting('V2_FEE_BPS')),
    gasUnits: gasUnitsOf(env, network),
    l1FeeOracle: l1FeeOracleOf(network),
    archiveRpcUrl: archiveRpcUrlOf(env, prefix),
  }
}

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

// DECISIONS §9.5: which networks of the table a stage serves (its routes, schedules, balances),
// parsed as the deploy rules and `npm start` parse NETWORKS (lib/networkNames.ts).
/** The networks this stage serves (NETWORKS), in the table's order. */
export const loadServedNetworks = memoize((): NetworkName[] => {
  try {
    return parseServedNetworks(readVariable('NETWORKS'))
  } catch (error) {
    throw new ConfigError(`invalid configuration: ${(error as Error).message}`)
  }
})

/**
 * The network a per-network function serves: NETWORK, which the deploy rules set on each
 * function they make of an operation's block (lib/networks/networkFunctions.ts).
 */
export const loadFunctionNetwork = memoize((): NetworkName => {
  const network = readVariable('NETWORK')
  if (!network || !(NETWORK_NAMES as string[]).includes(network)) {
    throw new ConfigError(
      `invalid configuration: NETWORK must name a network of the table (${NETWORK_NAMES.join(', ')})`,
    )
  }
  return network as NetworkName
})

export function loadChainConfig(network: NetworkName): ChainConfig {
  let load = chainLoaders.get(network)
  if (!load) {
    load = memoize(() => loadChain(network))
    chainLoaders.set(network, load)
  }
  return load()
}
