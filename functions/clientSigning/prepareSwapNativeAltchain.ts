import { prepareSwap } from '../../lib/clientSigning/prepareSwap'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { preparedSwapResultSchema } from '../../schemas/clientSigning'
import { nativeSwapBodySchema, type SwapBody } from '../../schemas/swap'

// The transactions POST /api/v1/swap/native/altchain/{key} would send, unsigned, for the wallet to sign.
export async function prepareSwapNativeAltchain(wallet: `0x${string}`, body: SwapBody) {
  return prepareSwap({ network: 'altchain', owner: wallet, ...body })
}

export const handler = defineHandler({
  auth: walletGuard,
  // Prepare writes and sends nothing: the session is read while the route reads.
  sessionRead: 'beside',
  body: nativeSwapBodySchema,
  result: preparedSwapResultSchema,
  run: ({ body, principal }) => prepareSwapNativeAltchain(principal.subject as `0x${string}`, body),
})
