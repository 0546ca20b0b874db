import * as z from './zod'

// Non-hardened child indexes: BIP32 reserves 2^31 and above for hardened derivation.
export const MAX_WALLET_INDEX = 2 ** 31 - 1

// zod names unknown keys in its message, and a client may have put its secret in one.
function onlyFields(...fields: string[]) {
  const message = `the body takes only ${fields.join(' and ')}`
  return (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? message : undefined)
}

// Only types are checked here: lib/wallet names what is wrong with a phrase or a key without
// quoting it, as a zod message about their content might.
export const mnemonicBodySchema = z.strictObject(
  {
    mnemonic: z.string(),
    index: z._default(z.int().check(z.minimum(0), z.maximum(MAX_WALLET_INDEX)), 0),
  },
  { error: onlyFields('mnemonic', 'index') },
)

export const privateKeyBodySchema = z.strictObject(
  { privateKey: z.string() },
  { error: onlyFields('privateKey') },
)

export const walletResultSchema = z.object({
  address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
  privateKey: z.string().check(z.regex(/^0x[0-9a-f]{64}$/)),
})

export const mnemonicResultSchema = z.object({
  mnemonic: z.string(),
})

export type MnemonicBody = z.infer<typeof mnemonicBodySchema>
export type PrivateKeyBody = z.infer<typeof privateKeyBodySchema>
export type WalletResult = z.infer<typeof walletResultSchema>
export type MnemonicResult = z.infer<typeof mnemonicResultSchema>
