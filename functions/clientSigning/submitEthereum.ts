import { submitSigned } from '../../lib/clientSigning/submitSigned'
import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import { type SubmitBody, submitBodySchema, submitResultSchema } from '../../schemas/clientSigning'

export interface SubmitInput {
  wallet: `0x${string}`
  idempotencyKey: string | undefined
  body: SubmitBody
}

export async function submitEthereum({ wallet, idempotencyKey, body }: SubmitInput) {
  return submitSigned({
    network: 'ethereum',
    route: 'POST /api/v1/submit/ethereum',
    wallet,
    idempotencyKey,
    transactions: body.transactions as `0x${string}`[],
  })
}

export const handler = defineHandler({
  auth: walletGuard,
  body: submitBodySchema,
  result: submitResultSchema,
  run: ({ body, principal, headers }) =>
    submitEthereum({
      wallet: principal.subject as `0x${string}`,
      idempotencyKey: headers['idempotency-key'],
      body,
    }),
})
