import { prepareSwap } from '../../lib/clientSigning/prepareSwap'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { preparedSwapResultSchema } from '../../schemas/clientSigning'
import { tokenSwapBodySchema, type SwapBody } from '../../schemas/swap'

// The transactions POST /api/v1/swap/tokens/altchain/{key} would send, unsigned, for the wallet to sign.
export async function prepareSwapTokensAltchain(wallet: `0x${string}`, body: SwapBody) {
  return prepareSwap({ network: 'altchain', owner: wallet, ...body })
}

export const handler = defineHandler({
  auth: walletGuard,
  // Prepare writes and sends nothing: the session is read while the route reads.
  sessionRead: 'beside',
  body: tokenSwapBodySchema,
  result: preparedSwapResultSchema,
  run: ({ body, principal }) => prepareSwapTokensAltchain(principal.subject as `0x${string}`, body),
})
