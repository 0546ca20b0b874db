import { defineHandler } from '../../lib/http/defineHandler'
import { deriveWallet } from '../../lib/wallet/deriveWallet'
import {
  type MnemonicBody,
  mnemonicBodySchema,
  type WalletResult,
  walletResultSchema,
} from '../../schemas/wallet'

export function recoverWalletFromMnemonic({ mnemonic, index }: MnemonicBody): WalletResult {
  return deriveWallet({ mnemonic, index })
}

export const handler = defineHandler({
  auth: 'none',
  body: mnemonicBodySchema,
  result: walletResultSchema,
  run: ({ body }) => recoverWalletFromMnemonic(body),
})
