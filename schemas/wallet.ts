import { addressString, documented, privateKeyInput } from './formats'
import { MAX_MNEMONIC_CHARS } from './limits'
import * as z from './zod'

// Non-hardened child indexes: BIP32 reserves 2^31 and above for hardened derivation.
export const MAX_WALLET_INDEX = 2 ** 31 - 1

// zod names unknown keys in its message, and a client may have put its secret in one.
function onlyFields(...fields: string[]) {
  const message = `the body takes only ${fields.join(' and ')}`
  return (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? message : undefined)
}

// Only types and lengths are checked here: lib/wallet names what is wrong with a phrase or a key
// without quoting it, as a zod message about their content might. The patterns in the document
// are what lib/wallet accepts, apart from the word list and the checksum.
export const mnemonicBodySchema = z.strictObject(
  {
    mnemonic: documented(
      z
        .string()
        .check(z.maxLength(MAX_MNEMONIC_CHARS, `must be at most ${MAX_MNEMONIC_CHARS} characters`)),
      // 12, 15, 18, 21 or 24 words of letters; lib/wallet normalises case and spacing.
      { pattern: '^\\s*[A-Za-z]+(\\s+[A-Za-z]+){11}((\\s+[A-Za-z]+){3}){0,4}\\s*$' },
    ),
    index: z._default(z.int().check(z.minimum(0), z.maximum(MAX_WALLET_INDEX)), 0),
  },
  { error: onlyFields('mnemonic', 'index') },
)

export const privateKeyBodySchema = z.strictObject(
  { privateKey: privateKeyInput() },
  { error: onlyFields('privateKey') },
)

export const walletResultSchema = z.object({
  address: addressString,
  privateKey: documented(z.string().check(z.regex(/^0x[0-9a-f]{64}$/)), { maxLength: 66 }),
})

export const mnemonicResultSchema = z.object({
  // 12 words of the BIP39 English list (3 to 8 letters each).
  mnemonic: documented(z.string().check(z.regex(/^[a-z]{3,8}( [a-z]{3,8}){11}$/)), {
    maxLength: 107,
  }),
})

export type MnemonicBody = z.infer<typeof mnemonicBodySchema>
export type PrivateKeyBody = z.infer<typeof privateKeyBodySchema>
export type WalletResult = z.infer<typeof walletResultSchema>
export type MnemonicResult = z.infer<typeof mnemonicResultSchema>
