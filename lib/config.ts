import * as z from 'zod'

// The only reader of process.env. Each section is parsed once, on first use, and fails with the
// variable's name, so a function reads only the settings it needs.

const positiveInt = z.coerce.number().int().positive()

const coreSchema = z.object({
  STAGE: z.string().min(1).default('local'),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  TABLE_NAME: z.string().min(1),
  DYNAMODB_ENDPOINT: z.url().optional(),
  DYNAMODB_REQUEST_TIMEOUT_MS: positiveInt.default(1000),
  DYNAMODB_MAX_ATTEMPTS: positiveInt.default(2),
})

const logSchema = z.object({
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
})

const authSchema = z
  .object({
    JWT_SECRET: z.string().min(32).optional(),
    JWT_SECRET_PARAMETER: z.string().startsWith('/').optional(),
    JWT_ISSUER: z.string().min(1).default('wallet-backend'),
    ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(15 * 60),
    REFRESH_TOKEN_TTL_SECONDS: positiveInt.default(30 * 24 * 60 * 60),
    SIWE_DOMAIN: z.string().min(1).default('localhost:3000'),
    SIWE_URI: z.url().default('http://localhost:3000'),
  })
  .refine((env) => env.JWT_SECRET ?? env.JWT_SECRET_PARAMETER, {
    message: 'set JWT_SECRET (local) or JWT_SECRET_PARAMETER (an SSM SecureString name)',
    path: ['JWT_SECRET'],
  })

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')

function chainSchema(prefix: 'ETHEREUM' | 'ALTCHAIN') {
  return z.object({
    [`${prefix}_CHAIN_ID`]: positiveInt,
    [`${prefix}_RPC_URL`]: z.url(),
    [`${prefix}_ROUTER`]: address,
    [`${prefix}_FACTORY`]: address,
    [`${prefix}_WRAPPED_NATIVE`]: address,
    [`${prefix}_USD_STABLECOIN`]: address,
  })
}

export type CoreConfig = ReturnType<typeof loadCoreConfig>
export type AuthConfig = ReturnType<typeof loadAuthConfig>
export type NetworkName = 'ethereum' | 'altchain'
export const NETWORK_NAMES: readonly NetworkName[] = ['ethereum', 'altchain']

export interface ChainConfig {
  network: NetworkName
  chainId: number
  rpcUrl: string
  router: `0x${string}`
  factory: `0x${string}`
  wrappedNative: `0x${string}`
  usdStablecoin: `0x${string}`
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function parseEnv<Schema extends z.ZodType>(schema: Schema): z.infer<Schema> {
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
  }
})

export const loadLogConfig = memoize(() => ({ logLevel: parseEnv(logSchema).LOG_LEVEL }))

export const loadAuthConfig = memoize(() => {
  const env = parseEnv(authSchema)
  return {
    jwtSecret: env.JWT_SECRET,
    jwtSecretParameter: env.JWT_SECRET_PARAMETER,
    issuer: env.JWT_ISSUER,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    siweDomain: env.SIWE_DOMAIN,
    siweUri: env.SIWE_URI,
  }
})

const chainLoaders = Object.fromEntries(
  NETWORK_NAMES.map((network) => {
    const prefix = network === 'ethereum' ? 'ETHEREUM' : 'ALTCHAIN'
    const load = memoize((): ChainConfig => {
      const env = parseEnv(chainSchema(prefix)) as Record<string, string | number>
      return {
        network,
        chainId: Number(env[`${prefix}_CHAIN_ID`]),
        rpcUrl: String(env[`${prefix}_RPC_URL`]),
        router: String(env[`${prefix}_ROUTER`]) as `0x${string}`,
        factory: String(env[`${prefix}_FACTORY`]) as `0x${string}`,
        wrappedNative: String(env[`${prefix}_WRAPPED_NATIVE`]) as `0x${string}`,
        usdStablecoin: String(env[`${prefix}_USD_STABLECOIN`]) as `0x${string}`,
      }
    })
    return [network, load]
  }),
) as Record<NetworkName, () => ChainConfig>

export function loadChainConfig(network: NetworkName): ChainConfig {
  return chainLoaders[network]()
}
