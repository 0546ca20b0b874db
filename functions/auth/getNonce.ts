import { issueNonce } from '../../lib/auth/walletSignIn'
import { defineHandler } from '../../lib/http/defineHandler'
import { type NonceParams, nonceParamsSchema, nonceResultSchema } from '../../schemas/auth'

export async function getNonce({ address }: NonceParams) {
  return issueNonce(address)
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: 'nonce',
  params: nonceParamsSchema,
  result: nonceResultSchema,
  run: ({ params }) => getNonce(params),
})
