import { issueNonce } from '../../lib/auth/walletSignIn'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import { type NonceParams, nonceParamsSchema, nonceResultSchema } from '../../schemas/auth'

export async function getNonce({ address }: NonceParams, sourceIp: string) {
  return issueNonce(address, sourceIp)
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('nonce'),
  params: nonceParamsSchema,
  result: nonceResultSchema,
  run: ({ params, sourceIp }) => getNonce(params, sourceIp),
})
