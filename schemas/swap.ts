import { isAddress, isAddressEqual, maxUint256, parseUnits, zeroAddress } from 'viem'
import { DEFAULT_DEADLINE_SECONDS, isNative, MAX_SPLIT_ROUTES, NATIVE_COIN } from '../lib/constants'
import { NETWORKS, type NetworkName } from '../lib/networkNames'
import { addressSchema } from './auth'
import {
  addressString,
  baseUnitsString,
  documented,
  hexDataString,
  hexQuantityString,
  privateKeyInput,
  tokenPathSchema,
  txHashString,
  unknownFieldsError,
  uuidString,
} from './formats'
import {
  MAX_DECIMALS,
  MAX_NAME_CHARS,
  MAX_PAGE_SIZE,
  MAX_PATH_TOKENS,
  MAX_SYMBOL_CHARS,
} from './limits'
import { networkNameSchema } from './networks'
import { previewSchema } from './preview'
import { directionSchema, integerString } from './query'
import * as z from './zod'

// Shapes of the token list, quotes, swaps and transfers (DECISIONS §4). Amounts arrive as decimal
// strings and become bigint base units with parseUnits: no floating point on the way in.

export const DEFAULT_SLIPPAGE_BPS = 50
export const MAX_SLIPPAGE_BPS = 5000

const DECIMAL_AMOUNT = /^\d{1,78}(\.\d{1,36})?$/
const amountSchema = documented(
  z.string().check(z.regex(DECIMAL_AMOUNT, 'must be a decimal string such as "1.5"')),
  { maxLength: 78 + 1 + 36 },
)

// zod runs an object's checks even when one of its fields failed: a check of several fields
// looks at them only once each is valid (their own issues are already reported).
const isAmount = (value: unknown): value is string =>
  typeof value === 'string' && DECIMAL_AMOUNT.test(value)
const isDecimals = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DECIMALS
const isAnAddress = (value: unknown): value is `0x${string}` =>
  typeof value === 'string' && isAddress(value, { strict: false })

const decimalsNumber = z.int().check(z.minimum(0), z.maximum(MAX_DECIMALS))

/** exactIn: `amount` of token0 goes in; exactOut: exactly `amount` of token1 arrives (§10.1). */
export const SWAP_TYPES = ['exactIn', 'exactOut'] as const
const swapTypeSchema = z._default(z.enum(SWAP_TYPES), 'exactIn')

interface SwapSides {
  type?: (typeof SWAP_TYPES)[number]
  amount: string
  address0: `0x${string}`
  decimals0: number
  address1: `0x${string}`
  decimals1: number
}

type Refinement = z.core.$RefinementCtx<SwapSides>

/** Checks that need both sides: exact amount, distinct tokens, the native coin's 18 decimals. */
export function checkSides(sides: SwapSides, context: Refinement): void {
  const { amount, address0, address1, decimals0, decimals1 } = sides
  if (!isAmount(amount) || !isDecimals(decimals0) || !isDecimals(decimals1)) return
  if (!isAnAddress(address0) || !isAnAddress(address1)) return
  const issue = (path: string, message: string) =>
    context.addIssue({ code: 'custom', path: [path], message })
  const fraction = sides.amount.split('.')[1] ?? ''
  // Exact output: `amount` is of token1.
  const side = sides.type === 'exactOut' ? 'decimals1' : 'decimals0'
  if (fraction.length > sides[side]) {
    issue('amount', `has more fraction digits than ${side} (${sides[side]})`)
  } else if (/^[0.]+$/.test(sides.amount)) {
    issue('amount', 'must be greater than zero')
  } else if (parseUnits(sides.amount, sides[side]) > maxUint256) {
    issue('amount', 'is too large')
  }
  if (isAddressEqual(sides.address0, sides.address1)) {
    issue('address1', 'must differ from address0')
  }
  for (const side of ['0', '1'] as const) {
    if (isNative(sides[`address${side}`]) && sides[`decimals${side}`] !== 18) {
      issue(`decimals${side}`, 'the native coin has 18 decimals')
    }
  }
}

// The token list (GET /v1/swap/tokens).

export const TOKEN_SORT_FIELDS = ['network', 'name', 'symbol', 'decimals', 'createdAt'] as const

export const listTokensQuerySchema = z.object({
  sort: z._default(z.enum(TOKEN_SORT_FIELDS), 'network'),
  direction: directionSchema,
  limit: z._default(integerString(1, MAX_PAGE_SIZE), 10),
  offset: z._default(integerString(0, Number.MAX_SAFE_INTEGER), 0),
})
export type ListTokensQuery = z.infer<typeof listTokensQuerySchema>

export const swapTokenSchema = z.object({
  id: uuidString,
  name: z.string().check(z.maxLength(MAX_NAME_CHARS)),
  address: addressString,
  symbol: z.string().check(z.maxLength(MAX_SYMBOL_CHARS)),
  decimals: decimalsNumber,
  network: networkNameSchema,
})

export const listTokensResultSchema = z.object({
  tokens: z.array(swapTokenSchema).check(z.maxLength(MAX_PAGE_SIZE)),
})
export type ListTokensResult = z.infer<typeof listTokensResultSchema>

// Quotes (GET /v1/swap/quote/{network}): every field arrives as a string.

export const quoteQuerySchema = z
  .strictObject(
    {
      amount: amountSchema,
      address0: addressSchema,
      decimals0: integerString(0, MAX_DECIMALS),
      address1: addressSchema,
      decimals1: integerString(0, MAX_DECIMALS),
      slippageBps: z._default(integerString(0, MAX_SLIPPAGE_BPS), DEFAULT_SLIPPAGE_BPS),
      recipient: z._default(addressSchema, zeroAddress),
      type: swapTypeSchema,
    },
    {
      error: unknownFieldsError(
        'query',
        'amount, address0, decimals0, address1, decimals1, slippageBps, recipient, type',
      ),
    },
  )
  .check(z.superRefine(checkSides))
export type QuoteQuery = z.infer<typeof quoteQuerySchema>

const routeHopSchema = z.object({
  protocol: z.enum(['v2', 'v3']),
  pool: addressString,
  /** V3 only: the pool's fee tier in hundredths of a basis point (500 = 0.05 %). */
  fee: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
  tokenIn: addressString,
  tokenOut: addressString,
  amountIn: baseUnitsString,
  amountOut: baseUnitsString,
})

/**
 * What a quote shows of its work (DECISIONS §8.1), beside the seed's fields: the exact amount
 * out, each route of the split with its share and per-hop pools and amounts, the price impact,
 * the gas and its cost in token1, the contract the calldata calls and the block quoted.
 */
export const routeAnswerFields = {
  amountOut: baseUnitsString,
  route: z
    .array(
      z.object({
        shareBps: z.int().check(z.minimum(1), z.maximum(10_000)),
        hops: z.array(routeHopSchema).check(z.minLength(1), z.maxLength(MAX_PATH_TOKENS - 1)),
      }),
    )
    .check(z.minLength(1), z.maxLength(MAX_SPLIT_ROUTES)),
  priceImpactBps: z.int().check(z.minimum(0), z.maximum(10_000)),
  gasEstimate: z.int().check(z.nonnegative()),
  gasCostToken1: baseUnitsString,
  /** An L2's L1 data fee of the transaction, in wei and in token1 (within `gasCostToken1`). */
  l1Fee: z.optional(z.object({ wei: baseUnitsString, token1: baseUnitsString })),
  to: addressString,
  blockNumber: z.int().check(z.nonnegative()),
  /** Exact output only: what the route takes of token0, exact (base units). */
  amountIn: z.optional(baseUnitsString),
  /** Exact output only: the most the call may take of token0, slippage included (hex). */
  amountInMax: z.optional(hexQuantityString),
}

/** The quote of a network whose quote answers only the path (altchain's, DECISIONS §4). */
export const quoteResultSchema = z.object({
  quote: z.number(),
  amount: z.number(),
  decimal: decimalsNumber,
  amountOutMin: hexQuantityString,
  path: tokenPathSchema,
  gasPriceWei: z.number(),
  ...routeAnswerFields,
})

/**
 * The quote of a network whose quote answers the router call (ethereum's, DECISIONS §4), plus
 * `amountOutMin` (§4 lists it for every quote).
 */
export const quoteWithCallResultSchema = z.object({
  quote: z.number(),
  amount: z.number(),
  decimal: decimalsNumber,
  amountOutMin: hexQuantityString,
  calldata: hexDataString,
  path: tokenPathSchema,
  value: hexQuantityString,
  gasPriceWei: z.number(),
  ...routeAnswerFields,
})

/** A network's quote result, as its table entry shapes its routes (lib/networks.ts). */
export function quoteResultSchemaOf(network: NetworkName) {
  return NETWORKS[network].routes.quoteCall ? quoteWithCallResultSchema : quoteResultSchema
}

// Executing routes (POST /v1/swap/..., /v1/transfer/...).

/** `{key}`: only its length here; lib/send/signer.ts parses it, and no message ever quotes it. */
export const keyParamsSchema = z.strictObject({ key: privateKeyInput() })
export type KeyParams = z.infer<typeof keyParamsSchema>

export const SWAP_FIELDS =
  'amount, address0, decimals0, address1, decimals1, slippageBps, deadlineSeconds, type'

const swapBodyObject = z.strictObject(
  {
    amount: amountSchema,
    address0: addressSchema,
    decimals0: decimalsNumber,
    address1: addressSchema,
    decimals1: decimalsNumber,
    slippageBps: z._default(
      z.int().check(z.minimum(0), z.maximum(MAX_SLIPPAGE_BPS)),
      DEFAULT_SLIPPAGE_BPS,
    ),
    deadlineSeconds: z._default(
      z.int().check(z.minimum(60), z.maximum(3600)),
      DEFAULT_DEADLINE_SECONDS,
    ),
    type: swapTypeSchema,
  },
  { error: unknownFieldsError('body', SWAP_FIELDS) },
)

/** The swap body's fields, for a route that takes more (a prepare's `permit`). */
export const swapBodyShape = swapBodyObject.shape

/** Either side may be the native coin (a network without a native route of its own). */
export const swapBodySchema = swapBodyObject.check(z.superRefine(checkSides))
export type SwapBody = z.infer<typeof swapBodySchema>

/** Token to token only: the tokens route of a network with a native route of its own. */
export const tokenSwapBodySchema = swapBodySchema.check(z.superRefine(checkTokensOnly))

/** Neither side is the native coin (a tokens route beside a native one). */
export function checkTokensOnly(body: SwapSides, context: Refinement): void {
  if (!isAnAddress(body.address0) || !isAnAddress(body.address1)) return
  if (isNative(body.address0) || isNative(body.address1)) {
    context.addIssue({
      code: 'custom',
      path: [isNative(body.address0) ? 'address0' : 'address1'],
      message:
        'this route swaps tokens; the native coin has a route of its own, /v1/swap/native/<network>',
    })
  }
}

/** Exactly one side is the native coin. */
export const nativeSwapBodySchema = swapBodySchema.check(z.superRefine(checkNativeSide))

/** Exactly one side is the native coin. */
export function checkNativeSide(body: SwapSides, context: Refinement): void {
  if (!isAnAddress(body.address0) || !isAnAddress(body.address1)) return
  if (!isNative(body.address0) && !isNative(body.address1)) {
    context.addIssue({
      code: 'custom',
      path: ['address0'],
      message: `one side must be the native coin (${NATIVE_COIN})`,
    })
  }
}

export const transferBodySchema = z
  .strictObject(
    {
      to: addressSchema.check(
        z.refine((to: string) => to !== zeroAddress, 'sending to the zero address burns'),
      ),
      amount: amountSchema,
      token: z.optional(addressSchema),
      decimals: z.optional(decimalsNumber),
    },
    { error: unknownFieldsError('body', 'to, amount, token, decimals') },
  )
  .check(
    z.superRefine((body, context) => {
      if (!isAmount(body.amount) || (body.token !== undefined && !isAnAddress(body.token))) return
      if (body.decimals !== undefined && !isDecimals(body.decimals)) return
      const native = body.token === undefined || isNative(body.token)
      const decimals = body.decimals ?? (native ? 18 : MAX_DECIMALS)
      const issue = (path: string, message: string) =>
        context.addIssue({ code: 'custom', path: [path], message })
      if (!native && body.token?.toLowerCase() === body.to.toLowerCase()) {
        issue('to', 'is the token contract itself; tokens sent there are lost')
      } else if (native && body.decimals !== undefined && body.decimals !== 18) {
        issue('decimals', 'the native coin has 18 decimals')
      } else if ((body.amount.split('.')[1] ?? '').length > decimals) {
        issue('amount', `has more fraction digits than decimals (${decimals})`)
      } else if (/^[0.]+$/.test(body.amount)) {
        issue('amount', 'must be greater than zero')
      } else if (parseUnits(body.amount, decimals) > maxUint256) {
        issue('amount', 'is too large')
      }
    }),
  )
export type TransferBody = z.infer<typeof transferBodySchema>

/** A `{key}` route's answer: the hash, and what the transactions were simulated to do first. */
export const txResultSchema = z.object({ txId: txHashString, preview: z.optional(previewSchema) })
export type TxResult = z.infer<typeof txResultSchema>
