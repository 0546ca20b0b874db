import * as z from './zod'

// Signing on the client (DECISIONS §7.3). The prepare routes take the bodies of the `{key}`
// routes (schemas/swap.ts, imported by the handlers) and answer unsigned transactions; the submit
// routes take them back signed.

const hexQuantity = z.string().check(z.regex(/^0x[0-9a-f]+$/))
const hexData = z.string().check(z.regex(/^0x[0-9a-f]*$/))
const txHash = z.string().check(z.regex(/^0x[0-9a-f]{64}$/))

/** An unsigned EIP-1559 transaction, quantities in hex as JSON-RPC writes them. */
export const unsignedTransactionSchema = z.object({
  kind: z.enum(['approval', 'swap', 'transfer']),
  description: z.string(),
  type: z.literal('eip1559'),
  chainId: z.int(),
  nonce: z.int(),
  gas: hexQuantity,
  maxFeePerGas: hexQuantity,
  maxPriorityFeePerGas: hexQuantity,
  to: z.string(),
  data: hexData,
  value: hexQuantity,
})

export const preparedSwapResultSchema = z.object({
  transactions: z.array(unsignedTransactionSchema),
  quote: z.object({
    quote: z.number(),
    amount: z.number(),
    decimal: z.int(),
    amountOutMin: hexQuantity,
    path: z.array(z.string()),
  }),
})
export type PreparedSwapResult = z.infer<typeof preparedSwapResultSchema>

export const preparedTransferResultSchema = z.object({
  transactions: z.array(unsignedTransactionSchema),
})
export type PreparedTransferResult = z.infer<typeof preparedTransferResultSchema>

/** A reset, an approval and a swap: the most a prepare route answers. */
export const MAX_SUBMITTED_TRANSACTIONS = 3
/** Hex digits of one signed transaction: a 3-hop swap is under 1,000. */
const MAX_SIGNED_HEX_DIGITS = 4096

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
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'the body takes only transactions' : undefined,
  },
)
export type SubmitBody = z.infer<typeof submitBodySchema>

export const submitResultSchema = z.object({ txId: txHash, txIds: z.array(txHash) })
export type SubmitResult = z.infer<typeof submitResultSchema>
