import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SignedInput } from '../../lib/send/signedRequest'
import { signedTransfer, type TransferBody } from '../../lib/transfer/signedTransfer'
import { keyParamsSchema, transferBodySchema, txResultSchema } from '../../schemas/swap'

export async function transferEthereum(input: SignedInput<TransferBody>) {
  return signedTransfer({
    network: 'ethereum',
    route: 'POST /api/v1/transfer/tokens/ethereum/{key}',
    ...input,
  })
}

export const handler = defineHandler({
  auth: walletGuard,
  // Read beside the chain reads; the Idempotency-Key's claim and the broadcast wait for it.
  sessionRead: 'beside',
  params: keyParamsSchema,
  body: transferBodySchema,
  result: txResultSchema,
  run: ({ params, body, principal, headers }) =>
    transferEthereum({
      key: params.key,
      wallet: principal.subject,
      idempotencyKey: headers['idempotency-key'],
      body,
    }),
})
