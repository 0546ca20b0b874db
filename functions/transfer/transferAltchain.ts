import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SignedInput } from '../../lib/send/signedRequest'
import { signedTransfer, type TransferBody } from '../../lib/transfer/signedTransfer'
import { keyParamsSchema, transferBodySchema, txResultSchema } from '../../schemas/swap'

export async function transferAltchain(input: SignedInput<TransferBody>) {
  return signedTransfer({
    network: 'altchain',
    route: 'POST /api/v1/transfer/tokens/altchain/{key}',
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
    transferAltchain({
      key: params.key,
      wallet: principal.subject,
      idempotencyKey: headers['idempotency-key'],
      body,
    }),
})
