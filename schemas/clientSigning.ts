import {
  addressString,
  hexDataString,
  hexQuantityString,
  tokenPathSchema,
  txHashString,
  unknownFieldsError,
} from './formats'
import {
  MAX_DECIMALS,
  MAX_DESCRIPTION_LINE_CHARS,
  MAX_SIGNED_HEX_DIGITS,
  MAX_SUBMITTED_TRANSACTIONS,
} from './limits'
import { previewSchema } from './preview'
import {
  checkNativeSide,
  checkSides,
  checkTokensOnly,
  routeAnswerFields,
  SWAP_FIELDS,
  swapBodyShape,
} from './swap'
import * as z from './zod'

// Signing on the client (DECISIONS §7.3). The prepare routes take the bodies of the `{key}`
// routes (schemas/swap.ts, imported by the handlers) and answer unsigned transactions; the submit
// routes take them back signed.

/** An unsigned EIP-1559 transaction, quantities in hex as JSON-RPC writes them. */
export const unsignedTransactionSchema = z.object({
  kind: z.enum(['approval', 'swap', 'transfer']),
  description: z.string().check(z.maxLength(MAX_DESCRIPTION_LINE_CHARS)),
  type: z.literal('eip1559'),
  chainId: z.int().check(z.positive()),
  nonce: z.int().check(z.nonnegative()),
  gas: hexQuantityString,
  maxFeePerGas: hexQuantityString,
  maxPriorityFeePerGas: hexQuantityString,
  to: addressString,
  data: hexDataString,
  value: hexQuantityString,
})

const unsignedTransactionsSchema = z
  .array(unsignedTransactionSchema)
  .check(z.maxLength(MAX_SUBMITTED_TRANSACTIONS))

/** 65 bytes: r ‖ s ‖ v, as eth_signTypedData_v4 answers. */
const signatureString = z
  .string()
  .check(
    z.maxLength(132),
    z.regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature in 0x-prefixed hex'),
  )

/**
 * A permit the wallet signed from a prepare answer's `permit` (DECISIONS §10.2): prepared again
 * with it, the swap is one transaction whose multicall starts with selfPermit.
 */
export const permitSignatureSchema = z.strictObject(
  {
    deadline: z.int().check(z.positive()),
    signature: signatureString,
  },
  { error: unknownFieldsError('body', 'deadline, signature') },
)

const PREPARE_SWAP_FIELDS = `${SWAP_FIELDS}, permit`

const prepareSwapBodyObject = z.strictObject(
  { ...swapBodyShape, permit: z.optional(permitSignatureSchema) },
  { error: unknownFieldsError('body', PREPARE_SWAP_FIELDS) },
)

/** A prepare's swap body: the `{key}` route's, and a signed `permit`. Either side may be native. */
export const prepareSwapBodySchema = prepareSwapBodyObject.check(z.superRefine(checkSides))
/** Token to token only (a network with a native route of its own). */
export const prepareTokenSwapBodySchema = prepareSwapBodySchema.check(
  z.superRefine(checkTokensOnly),
)
/** Exactly one side is the native coin. */
export const prepareNativeSwapBodySchema = prepareSwapBodySchema.check(
  z.superRefine(checkNativeSide),
)

const uint256String = z.string().check(z.maxLength(78), z.regex(/^\d{1,78}$/, 'a decimal integer'))

/** An EIP-712 struct field: its name and Solidity type. */
const typedFieldSchema = z.object({
  name: z.string().check(z.maxLength(32), z.regex(/^[A-Za-z_]\w*$/)),
  type: z.string().check(z.maxLength(32), z.regex(/^[a-z]+\d*$/)),
})

/**
 * The EIP-712 permit to sign instead of an approval (EIP-2612, DECISIONS §10.2), as
 * eth_signTypedData_v4 takes it; quantities are decimal strings.
 */
export const permitOfferSchema = z.object({
  typedData: z.object({
    domain: z.object({
      name: z.string().check(z.maxLength(MAX_DESCRIPTION_LINE_CHARS)),
      version: z.string().check(z.maxLength(32), z.regex(/^[\w.-]+$/)),
      chainId: z.int().check(z.positive()),
      verifyingContract: addressString,
    }),
    types: z.object({
      EIP712Domain: z.array(typedFieldSchema).check(z.length(4)),
      Permit: z.array(typedFieldSchema).check(z.length(5)),
    }),
    primaryType: z.literal('Permit'),
    message: z.object({
      owner: addressString,
      spender: addressString,
      value: uint256String,
      nonce: uint256String,
      deadline: uint256String,
    }),
  }),
  /** The permit's deadline, epoch seconds: sent back with the signature. */
  deadline: z.int().check(z.positive()),
})

export const preparedSwapResultSchema = z.object({
  transactions: unsignedTransactionsSchema,
  permit: z.optional(permitOfferSchema),
  preview: previewSchema,
  quote: z.object({
    quote: z.number(),
    amount: z.number(),
    decimal: z.int().check(z.minimum(0), z.maximum(MAX_DECIMALS)),
    amountOutMin: hexQuantityString,
    path: tokenPathSchema,
    ...routeAnswerFields,
  }),
})
export type PreparedSwapResult = z.infer<typeof preparedSwapResultSchema>

export const preparedTransferResultSchema = z.object({
  transactions: unsignedTransactionsSchema,
  preview: previewSchema,
})
export type PreparedTransferResult = z.infer<typeof preparedTransferResultSchema>

export const submitBodySchema = z.strictObject(
  {
    transactions: z
      .array(
        z
          .string()
          .check(
            z.maxLength(MAX_SIGNED_HEX_DIGITS + 2),
            z.regex(/^0x([0-9a-fA-F]{2})+$/, 'must be a signed transaction in 0x-prefixed hex'),
          ),
      )
      .check(z.minLength(1), z.maxLength(MAX_SUBMITTED_TRANSACTIONS)),
  },
  { error: unknownFieldsError('body', 'transactions') },
)
export type SubmitBody = z.infer<typeof submitBodySchema>

export const submitResultSchema = z.object({
  txId: txHashString,
  txIds: z.array(txHashString).check(z.maxLength(MAX_SUBMITTED_TRANSACTIONS)),
})
export type SubmitResult = z.infer<typeof submitResultSchema>
