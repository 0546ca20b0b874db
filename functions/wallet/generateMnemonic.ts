import { defineHandler } from '../../lib/http/defineHandler'
import { randomMnemonic } from '../../lib/wallet/mnemonic'
import { type MnemonicResult, mnemonicResultSchema } from '../../schemas/wallet'

export function generateMnemonic(): MnemonicResult {
  return { mnemonic: randomMnemonic() }
}

export const handler = defineHandler({
  auth: 'none',
  result: mnemonicResultSchema,
  run: () => generateMnemonic(),
})
