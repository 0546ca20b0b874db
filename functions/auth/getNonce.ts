import { issueNonce } from '../../lib/auth/walletSignIn'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import { type NonceParams, nonceParamsSchema, nonceResultSchema } from '../../schemas/auth'

export async function getNonce({ address }: NonceParams) {
  return issueNonce(address)
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('nonce'),
  params: nonceParamsSchema,
  result: nonceResultSchema,
  run: ({ params }) => getNonce(params),
})
