import { type SubmitInput, submitSigned } from '../../lib/clientSigning/submitSigned'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { submitBodySchema, submitResultSchema } from '../../schemas/clientSigning'

// Transactions the wallet signed from a prepare route's answer: checked, then broadcast in order.
export async function submitEthereum(input: SubmitInput) {
  return submitSigned({ network: 'ethereum', route: 'POST /api/v1/submit/ethereum', ...input })
}

export const handler = defineHandler({
  auth: walletGuard,
  // 'guard', the session first: read beside the catalog, the two reads would race to start the
  // claim and the chain reads, and the route's steps would vary (tests/functions/requestCosts).
  body: submitBodySchema,
  result: submitResultSchema,
  run: ({ body, principal, headers }) =>
    submitEthereum({
      wallet: principal.subject as `0x${string}`,
      idempotencyKey: headers['idempotency-key'],
      transactions: body.transactions as `0x${string}`[],
    }),
})
