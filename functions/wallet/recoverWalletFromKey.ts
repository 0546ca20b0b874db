import { defineHandler } from '../../lib/http/defineHandler'
import { walletFromKey } from '../../lib/wallet/walletFromKey'
import {
  type PrivateKeyBody,
  privateKeyBodySchema,
  type WalletResult,
  walletResultSchema,
} from '../../schemas/wallet'

export function recoverWalletFromKey({ privateKey }: PrivateKeyBody): WalletResult {
  return walletFromKey(privateKey)
}

export const handler = defineHandler({
  auth: 'none',
  body: privateKeyBodySchema,
  result: walletResultSchema,
  run: ({ body }) => recoverWalletFromKey(body),
})
