import {
  keyParamsSchema,
  swapBodySchema,
  tokenSwapBodySchema,
  txResultSchema,
} from '../../schemas/swap'
import { walletGuard } from '../auth/guard'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import { operationRouteKey } from '../networks/operations'
import { NETWORKS, type NetworkName } from '../networkNames'
import { signedSwap } from '../swap/signedSwap'
import { SWAP_RPC_CAP } from '../rpcCallCaps'

/**
 * POST /api/v1/swap/tokens/<network>/{key}: token to token where the network has a native swap
 * route of its own, else either side may be the native coin.
 */
export function swapTokensRoute(network: NetworkName) {
  const route = operationRouteKey('swapTokens', network)
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(SWAP_RPC_CAP),
    // 'guard', the session first: read beside the pools, it would race them to start the claim
    // and the simulation, and the route's steps would vary (tests/functions/requestCosts.test.ts).
    params: keyParamsSchema,
    body: NETWORKS[network].routes.nativeSwapRoute ? tokenSwapBodySchema : swapBodySchema,
    result: txResultSchema,
    run: ({ params, body, principal, headers }) =>
      signedSwap({
        network,
        route,
        key: params.key,
        wallet: principal.subject,
        idempotencyKey: headers['idempotency-key'],
        body,
      }),
  })
}
