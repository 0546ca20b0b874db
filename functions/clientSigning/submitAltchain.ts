import { type SubmitInput, submitSigned } from '../../lib/clientSigning/submitSigned'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { submitBodySchema, submitResultSchema } from '../../schemas/clientSigning'

// Transactions the wallet signed from a prepare route's answer: checked, then broadcast in order.
export async function submitAltchain(input: SubmitInput) {
  return submitSigned({ network: 'altchain', route: 'POST /api/v1/submit/altchain', ...input })
}

export const handler = defineHandler({
  auth: walletGuard,
  // 'guard', the session first: read beside the catalog, the two reads would race to start the
  // claim and the chain reads, and the route's steps would vary (tests/functions/requestCosts).
  body: submitBodySchema,
  result: submitResultSchema,
  run: ({ body, principal, headers }) =>
    submitAltchain({
      wallet: principal.subject as `0x${string}`,
      idempotencyKey: headers['idempotency-key'],
      transactions: body.transactions as `0x${string}`[],
    }),
})
