import { submitSigned } from '../../lib/clientSigning/submitSigned'
import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import { type SubmitBody, submitBodySchema, submitResultSchema } from '../../schemas/clientSigning'

export interface SubmitInput {
  wallet: `0x${string}`
  idempotencyKey: string | undefined
  body: SubmitBody
}

export async function submitAltchain({ wallet, idempotencyKey, body }: SubmitInput) {
  return submitSigned({
    network: 'altchain',
    route: 'POST /api/v1/submit/altchain',
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
    submitAltchain({
      wallet: principal.subject as `0x${string}`,
      idempotencyKey: headers['idempotency-key'],
      body,
    }),
})
