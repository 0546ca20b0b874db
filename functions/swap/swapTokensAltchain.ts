import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SignedInput } from '../../lib/send/signedRequest'
import { type SwapBody, signedSwap } from '../../lib/swap/signedSwap'
import { keyParamsSchema, tokenSwapBodySchema, txResultSchema } from '../../schemas/swap'

export async function swapTokensAltchain(input: SignedInput<SwapBody>) {
  return signedSwap({
    network: 'altchain',
    route: 'POST /api/v1/swap/tokens/altchain/{key}',
    ...input,
  })
}

export const handler = defineHandler({
  auth: walletGuard,
  // 'guard', the session first: read beside the pools, it would race them to start the claim
  // and the simulation, and the route's steps would vary (tests/functions/requestCosts.test.ts).
  params: keyParamsSchema,
  body: tokenSwapBodySchema,
  result: txResultSchema,
  run: ({ params, body, principal, headers }) =>
    swapTokensAltchain({
      key: params.key,
      wallet: principal.subject,
      idempotencyKey: headers['idempotency-key'],
      body,
    }),
})
