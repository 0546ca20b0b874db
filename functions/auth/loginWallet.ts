import { signInWithWallet } from '../../lib/auth/walletSignIn'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import { type WalletLoginBody, walletLoginBodySchema } from '../../schemas/auth'
import { sessionTokensSchema } from '../../schemas/session'

export async function loginWallet(
  { address, signature, nonce }: WalletLoginBody,
  sourceIp: string,
) {
  return signInWithWallet(address, signature, { nonce, sourceIp })
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('login'),
  body: walletLoginBodySchema,
  result: sessionTokensSchema,
  run: ({ body, sourceIp }) => loginWallet(body, sourceIp),
})
