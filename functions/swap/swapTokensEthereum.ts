import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SignedInput } from '../../lib/send/signedRequest'
import { type SwapBody, signedSwap } from '../../lib/swap/signedSwap'
import { keyParamsSchema, swapBodySchema, txResultSchema } from '../../schemas/swap'

// Token to token, or the native coin on either side: ethereum has no separate native route.
export async function swapTokensEthereum(input: SignedInput<SwapBody>) {
  return signedSwap({
    network: 'ethereum',
    route: 'POST /api/v1/swap/tokens/ethereum/{key}',
    ...input,
  })
}

export const handler = defineHandler({
  auth: walletGuard,
  // 'guard', the session first: read beside the pools, it would race them to start the claim
  // and the simulation, and the route's steps would vary (tests/functions/requestCosts.test.ts).
  params: keyParamsSchema,
  body: swapBodySchema,
  result: txResultSchema,
  run: ({ params, body, principal, headers }) =>
    swapTokensEthereum({
      key: params.key,
      wallet: principal.subject,
      idempotencyKey: headers['idempotency-key'],
      body,
    }),
})
