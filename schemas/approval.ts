import { maxUint256 } from 'viem'
import { addressSchema } from './auth'
import { unsignedTransactionSchema } from './clientSigning'
import { addressString, baseUnitsString, documented, unknownFieldsError } from './formats'
import { networkNameSchema } from './networks'
import { previewSchema } from './preview'
import * as z from './zod'

// The router's allowance (GET /v1/swap/approval/{network}, DECISIONS §10.2): whether `owner`
// must approve the network's router for `amount` of `token`, and the unsigned approval if so.

export const approvalParamsSchema = z.strictObject({ network: networkNameSchema })
export type ApprovalParams = z.infer<typeof approvalParamsSchema>

const BASE_UNITS = /^\d{1,78}$/

/** A whole number of base units, 1 to 2^256 - 1: an approval of 0 is never what is asked. */
const approvalAmountString = documented(
  z.string().check(
    z.regex(BASE_UNITS, 'must be a whole number of base units, such as "1500000"'),
    z.refine(
      (value) => !BASE_UNITS.test(value) || (BigInt(value) > 0n && BigInt(value) <= maxUint256),
      'must be from 1 to 2^256 - 1',
    ),
  ),
  { maxLength: 78 },
)

export const approvalQuerySchema = z.strictObject(
  { token: addressSchema, amount: approvalAmountString, owner: addressSchema },
  { error: unknownFieldsError('query', 'token, amount, owner') },
)
export type ApprovalQuery = z.infer<typeof approvalQuerySchema>

export const approvalResultSchema = z.object({
  /** True when the allowance is short of `amount`: sign and send `transactions` first. */
  needed: z.boolean(),
  /** The network's router, which swaps pull the token for. */
  spender: addressString,
  /** The owner's allowance to the router now, in base units (2^256 - 1 for the native coin). */
  allowance: baseUnitsString,
  amount: baseUnitsString,
  /**
   * The unsigned approvals, in order, as prepare answers them: approve(router, amount), after
   * approve(router, 0) where the allowance is not zero. Empty when none is needed.
   */
  transactions: z.array(unsignedTransactionSchema).check(z.maxLength(2)),
  /** What the approvals would do, simulated (DECISIONS §10.2); only when some are needed. */
  preview: z.optional(previewSchema),
})
export type ApprovalResult = z.infer<typeof approvalResultSchema>
