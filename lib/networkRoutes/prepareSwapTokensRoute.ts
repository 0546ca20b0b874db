import {
  prepareSwapBodySchema,
  preparedSwapResultSchema,
  prepareTokenSwapBodySchema,
} from '../../schemas/clientSigning'
import { walletGuard } from '../auth/guard'
import { prepareSwap } from '../clientSigning/prepareSwap'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import { NETWORKS, type NetworkName } from '../networkNames'
import { PREPARE_SWAP_RPC_CAP } from '../rpcCallCaps'

/**
 * POST /api/v1/prepare/swap/tokens/<network>: the transactions the network's tokens swap route
 * would send (an approval where needed, then the swap), unsigned, for the wallet to sign.
 */
export function prepareSwapTokensRoute(network: NetworkName) {
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(PREPARE_SWAP_RPC_CAP),
    // Prepare writes and sends nothing: the session is read while the route reads.
    sessionRead: 'beside',
    body: NETWORKS[network].routes.nativeSwapRoute
      ? prepareTokenSwapBodySchema
      : prepareSwapBodySchema,
    result: preparedSwapResultSchema,
    run: ({ body, principal }) =>
      prepareSwap({ network, owner: principal.subject as `0x${string}`, ...body }),
  })
}
