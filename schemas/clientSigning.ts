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
import { routeAnswerFields } from './swap'
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

export const preparedSwapResultSchema = z.object({
  transactions: unsignedTransactionsSchema,
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
