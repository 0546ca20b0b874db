import { getAddress, isAddress } from 'viem'
import { SIWE_NONCE_RANGE } from '../lib/constants'
import { documented } from './formats'
import { MAX_SIGN_IN_MESSAGE_CHARS } from './limits'
import * as z from './zod'

const SINGLE_CASE = /^0x(?:[0-9a-f]{40}|[0-9A-F]{40})$/

/**
 * A 0x address, returned checksummed. A mixed-case address must carry a valid EIP-55 checksum
 * (DECISIONS §7.2): one flipped letter is a typo that would send funds elsewhere; all lower or
 * all upper case carries no checksum and is accepted.
 */
export const addressSchema = z.pipe(
  // The first refinement is viem's test, which is this pattern (a second issue would be noise).
  documented(
    z.string().check(
      z.refine(
        (value) => isAddress(value, { strict: false }),
        'must be a 0x-prefixed 20-byte address',
      ),
      z.refine(
        (value) =>
          !isAddress(value, { strict: false }) || SINGLE_CASE.test(value) || isAddress(value),
        'has a wrong EIP-55 checksum (mixed case); check the address or send it in lower case',
      ),
    ),
    {
      pattern: '^0x[0-9a-fA-F]{40}$',
      maxLength: 42,
      description: 'A mixed-case address must carry a valid EIP-55 checksum.',
    },
  ),
  z.transform((value: string) => getAddress(value)),
)

export const nonceParamsSchema = z.strictObject({ address: addressSchema })
export type NonceParams = z.infer<typeof nonceParamsSchema>

export const nonceResultSchema = z.object({
  nonce: z.int().check(z.minimum(SIWE_NONCE_RANGE.min), z.maximum(SIWE_NONCE_RANGE.max)),
  // EIP-4361 text: its first two lines, then the statement, URI, chain, nonce and times.
  message: z
    .string()
    .check(
      z.maxLength(MAX_SIGN_IN_MESSAGE_CHARS),
      z.regex(/^\S+ wants you to sign in with your Ethereum account:\n0x[0-9a-fA-F]{40}\n/),
    ),
})

// DECISIONS §7.1: a signature is 65 bytes, or up to 8 KB for a contract wallet (EIP-1271/6492).
export const MAX_SIGNATURE_BYTES = 8 * 1024

export const walletLoginBodySchema = z.strictObject({
  address: addressSchema,
  signature: z.pipe(
    z
      .string()
      .check(
        z.maxLength(2 + 2 * MAX_SIGNATURE_BYTES, `must be at most ${MAX_SIGNATURE_BYTES} bytes`),
        z.regex(/^0x([0-9a-fA-F]{2}){65,}$/, 'must be a 0x-prefixed hex signature'),
      ),
    z.transform((value: string) => value as `0x${string}`),
  ),
  /** The nonce that was signed (recommended): without it, the newest outstanding ones are tried. */
  nonce: z.optional(z.int().check(z.positive())),
})
export type WalletLoginBody = z.infer<typeof walletLoginBodySchema>
