import * as z from '../../schemas/zod'
import { GAS_PARTS, gasVariable } from './gasUnits'
import type { NetworkName } from '../networkNames'

// The variables of a network's settings, checked whether the table (lib/config/networkSettings.ts)
// or the environment gave them: lib/config.ts parses them into a ChainConfig.

const nonEmpty = z.string().check(z.minLength(1))
const positiveInt = z.pipe(z.coerce.number(), z.int().check(z.positive()))
const gasUnit = z.pipe(z.coerce.number(), z.int().check(z.nonnegative(), z.maximum(10_000_000)))

/** Connector tokens a network may configure beside its base tokens (a quote reads their pools). */
export const MAX_CONNECTOR_TOKENS = 6
/** Base tokens beside the wrapped coin and the stablecoin (a quote reads the pools among them). */
export const MAX_EXTRA_BASE_TOKENS = 3

const address = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address'))

export const rpcUrlList = z
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

/** A network's variables and their checks, by name (`ETHEREUM_CHAIN_ID`). */
function chainShape(prefix: string) {
  return {
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
  }
}

/** The names of a network's variables: what may override its table entry or carry its secrets. */
export function chainVariables(network: string): string[] {
  return Object.keys(chainShape(network.toUpperCase()))
}

export function chainSchema(prefix: Uppercase<NetworkName>) {
  return z
    .object({ ...chainShape(prefix), STAGE: z._default(nonEmpty, 'local') })
    .check(
      z.refine(
        (env: Record<string, unknown>) =>
          env[`${prefix}_RPC_URL`] ?? env[`${prefix}_RPC_URL_PARAMETER`],
        {
          message: `set ${prefix}_RPC_URL (local) or ${prefix}_RPC_URL_PARAMETER (an SSM SecureString name)`,
          path: [`${prefix}_RPC_URL`],
        },
      ),
    )
    .check(
      z.refine(
        (env: Record<string, unknown>) => {
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
