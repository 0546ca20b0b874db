import { signInWithWallet } from '../../lib/auth/walletSignIn'
import { defineHandler } from '../../lib/http/defineHandler'
import { type WalletLoginBody, walletLoginBodySchema } from '../../schemas/auth'
import { sessionTokensSchema } from '../../schemas/session'

export async function loginWallet({ address, signature }: WalletLoginBody) {
  return signInWithWallet(address, signature)
}

export const handler = defineHandler({
  auth: 'none',
  body: walletLoginBodySchema,
  result: sessionTokensSchema,
  run: ({ body }) => loginWallet(body),
})
