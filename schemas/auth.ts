import { getAddress, isAddress } from 'viem'
import * as z from './zod'

/** Any-case 0x address, returned checksummed. */
export const addressSchema = z.pipe(
  z
    .string()
    .check(
      z.refine(
        (value) => isAddress(value, { strict: false }),
        'must be a 0x-prefixed 20-byte address',
      ),
    ),
  z.transform((value: string) => getAddress(value)),
)

export const nonceParamsSchema = z.strictObject({ address: addressSchema })
export type NonceParams = z.infer<typeof nonceParamsSchema>

export const nonceResultSchema = z.object({ nonce: z.int(), message: z.string() })

export const walletLoginBodySchema = z.strictObject({
  address: addressSchema,
  signature: z.pipe(
    z
      .string()
      .check(
        z.regex(/^0x([0-9a-fA-F]{2}){65,}$/, 'must be a 0x-prefixed hex signature'),
        z.maxLength(20_000),
      ),
    z.transform((value: string) => value as `0x${string}`),
  ),
})
export type WalletLoginBody = z.infer<typeof walletLoginBodySchema>
