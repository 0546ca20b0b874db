import { prepareNativeSwapBodySchema, preparedSwapResultSchema } from '../../schemas/clientSigning'
import { walletGuard } from '../auth/guard'
import { prepareSwap } from '../clientSigning/prepareSwap'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import type { NetworkName } from '../networkNames'
import { PREPARE_SWAP_RPC_CAP } from '../rpcCallCaps'

/**
 * POST /api/v1/prepare/swap/native/<network>: the transactions the network's native swap route
 * would send, unsigned, for the wallet to sign.
 */
export function prepareSwapNativeRoute(network: NetworkName) {
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(PREPARE_SWAP_RPC_CAP),
    // Prepare writes and sends nothing: the session is read while the route reads.
    sessionRead: 'beside',
    body: prepareNativeSwapBodySchema,
    result: preparedSwapResultSchema,
    run: ({ body, principal }) =>
      prepareSwap({ network, owner: principal.subject as `0x${string}`, ...body }),
  })
}
