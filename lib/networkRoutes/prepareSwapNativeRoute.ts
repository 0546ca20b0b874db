import { preparedSwapResultSchema } from '../../schemas/clientSigning'
import { nativeSwapBodySchema } from '../../schemas/swap'
import { walletGuard } from '../auth/guard'
import { prepareSwap } from '../clientSigning/prepareSwap'
import { defineHandler } from '../http/defineHandler'
import type { NetworkName } from '../networkNames'

/**
 * POST /api/v1/prepare/swap/native/<network>: the transactions the network's native swap route
 * would send, unsigned, for the wallet to sign.
 */
export function prepareSwapNativeRoute(network: NetworkName) {
  return defineHandler({
    auth: walletGuard,
    // Prepare writes and sends nothing: the session is read while the route reads.
    sessionRead: 'beside',
    body: nativeSwapBodySchema,
    result: preparedSwapResultSchema,
    run: ({ body, principal }) =>
      prepareSwap({ network, owner: principal.subject as `0x${string}`, ...body }),
  })
}
