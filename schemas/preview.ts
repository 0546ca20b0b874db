import { addressString, baseUnitsString, documented } from './formats'
import { MAX_SUBMITTED_TRANSACTIONS } from './limits'
import * as z from './zod'

// A preview of every transaction (DECISIONS §10.2): what the transactions of a prepare answer or
// a `{key}` route do, simulated in order at the quoted block. Amounts are decimal strings of base
// units; a change carries its sign.

const MAX_REASON_CHARS = 400
const MAX_PREVIEW_CHANGES = 64

// A revert reason as the contract wrote it, control characters replaced and cut to a length.
const reasonString = z
  .string()
  .check(z.maxLength(MAX_REASON_CHARS), z.regex(/^[^\u0000-\u001f\u007f]*$/))
const transactionKind = z.enum(['approval', 'swap', 'transfer'])

const signedBaseUnits = documented(z.string().check(z.regex(/^-?\d{1,78}$/)), { maxLength: 79 })

const previewIssueSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('insufficientBalance'),
    token: addressString,
    required: baseUnitsString,
    available: baseUnitsString,
  }),
  z.object({
    type: z.literal('insufficientAllowance'),
    token: addressString,
    spender: addressString,
    required: baseUnitsString,
    available: baseUnitsString,
  }),
  z.object({
    type: z.literal('simulationFailed'),
    transaction: z.int().check(z.nonnegative()),
    kind: transactionKind,
    reason: reasonString,
  }),
  z.object({
    type: z.literal('priceMoved'),
    token: addressString,
    minimum: baseUnitsString,
    simulated: signedBaseUnits,
  }),
])

export const previewSchema = z.object({
  blockNumber: baseUnitsString,
  method: z.enum(['eth_simulateV1', 'eth_call']),
  transactions: z
    .array(
      z.object({
        kind: transactionKind,
        status: z.enum(['success', 'failure']),
        gasUsed: baseUnitsString,
        reason: z.optional(reasonString),
      }),
    )
    .check(z.maxLength(MAX_SUBMITTED_TRANSACTIONS)),
  gasUsed: baseUnitsString,
  balanceChanges: z
    .array(z.object({ address: addressString, token: addressString, change: signedBaseUnits }))
    .check(z.maxLength(MAX_PREVIEW_CHANGES)),
  allowanceChanges: z
    .array(
      z.object({
        token: addressString,
        owner: addressString,
        spender: addressString,
        before: baseUnitsString,
        after: baseUnitsString,
      }),
    )
    .check(z.maxLength(MAX_SUBMITTED_TRANSACTIONS)),
  issues: z.array(previewIssueSchema).check(z.maxLength(8)),
})
export type PreviewAnswer = z.infer<typeof previewSchema>
